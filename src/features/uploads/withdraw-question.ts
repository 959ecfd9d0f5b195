// The Withdraw confirmation names the upload and says what withdrawing does (issue 31).
export const withdrawQuestion = (name: string) =>
  `Withdraw the upload “${name}”? The pages it graded count as not graded again (a file it completed goes back to Grading, and its return file is made again once all is graded), and its report and scans are deleted. This action cannot be undone.`;
