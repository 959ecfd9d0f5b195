// Review ends with a word (issue 31): when the last flag of a file is mended while a person is
// working through it, this says so and what comes next, and leaves them where they are; they go
// on to the file when they choose. It speaks only when Review ended in front of them.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Message } from 'primereact/message';
import { useGetFileSteps } from '../../../generated/hooks/files/files';
import type { WorkflowStep } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';

export const REVIEW_COMPLETE = 'Review is complete: nothing in this file waits for a person any more.';
export const NEXT_ASSIGN = 'Next: assign its responses to congregations.';
export const NEXT_SEND = 'Next: send it to the study helpers.';
export const GO_TO_FILE = 'Go to the file';

/** What the file's step says comes after Review, or null when Review has not just ended. */
export function reviewEndText(before: WorkflowStep | undefined, now: WorkflowStep | undefined): string | null {
  if (before !== 'review') return null;
  if (now === 'assign') return `${REVIEW_COMPLETE} ${NEXT_ASSIGN}`;
  if (now === 'send') return `${REVIEW_COMPLETE} ${NEXT_SEND}`;
  return null;
}

export function ReviewComplete({ fileId, linkToFile = true }: { fileId: string; linkToFile?: boolean }) {
  const steps = useGetFileSteps(fileId, { query: { enabled: fileId !== '' } });
  const now = steps.data?.step;
  // The step first seen here: Review ends "in front of" the person only if it was Review then.
  const [first, setFirst] = useState<WorkflowStep | undefined>(undefined);
  if (first === undefined && now !== undefined) setFirst(now);
  const text = reviewEndText(first, now);
  if (text === null) return null;
  return (
    <Message
      severity="success"
      className="review-complete"
      content={
        <span role="status">
          {text}
          {linkToFile && (
            <>
              {' '}
              <Link to={paths.file(fileId)}>{GO_TO_FILE}</Link>
            </>
          )}
        </span>
      }
    />
  );
}
