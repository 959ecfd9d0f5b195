// Everything the server draws PDFs with, in one module that is only ever imported lazily
// (pdfDrawing in ./lazy-drawing): the answer-sheet masters and cover sheets, packets, return
// files, a sheet's print. Their libraries (pdf-lib, fontkit, bidi-js, qrcode) are not loaded
// by a server or worker that never draws one.
export { makeAnswerSheetMaster } from './answer-sheet-master';
export { makeCoverSheet } from './cover-sheet';
export { createPdfWriter } from './pdf-writer';
export { PAGE_SIZES } from './printed-page';
export { drawNextLessonPage } from './next-lesson-page';
export { drawPacketPage, drawScan, PACKET_PAGE_SIZE } from './packet-page';
export { createBlobPdfWriter } from './streaming-pdf-writer';
