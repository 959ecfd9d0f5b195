// Upload dialog, in two variants chosen by input.variant:
//   service_center  a scanned file for POST /api/file, with answer_sheet_page_length 0|1|2 (default 0)
//   study_helper    graded scans or intro files for POST /api/study-helpers/file; asks first whether
//                   the upload is an intro file, and an intro file needs a chosen study helper
//
// State hierarchy (id "uploadDialog"):
//   closed                 initial. OPEN → open
//   open                   CANCEL or CLOSE (from any substate) → closed, everything reset
//     (starting)           transient: → askingIntro (study_helper) or choosing (service_center)
//     askingIntro          "intro file?" ANSWER_INTRO {isIntro} → choosing
//     choosing             CHOOSE_FILES / DROP_FILES (dropped files are filtered by accepted types)
//                          replace the selection; ADD_PHOTOS (the camera, a photo or a few at a
//                          time) adds to it, a photo already chosen once; each file over
//                          MAX_UPLOAD_BYTES is kept aside and flagged "File too Large".
//                          REMOVE_FILE {name}, REMOVE_PHOTO {index} (phones name every photo
//                          alike), CLEAR_FILES, SELECT_STUDY_HELPER (intro only), SET_PAGE_LENGTH
//                          (service_center only). UPLOAD → uploading, guard canUpload: a file, no
//                          too-large file, a selection the contract takes (PDFs, or 1 to 50 photos
//                          and nothing else: selectionProblem) and a study helper when it is an
//                          intro upload
//     uploading            PDFs: one resumable upload per file, in order; photos: one multipart
//                          request carrying them all. Results collected per request.
//                          CANCEL here → cancelled (not closed: the dialog says nothing was stored)
//       (nextFile)         transient: all files handled → decide; photos → sendingPhotos; a file
//                          that cannot be sent ("File is undefined", "File too large") is recorded
//                          and skipped; otherwise → lookingForEarlier
//       lookingForEarlier  invokes actor `findEarlierUpload` (id "findEarlierUpload"): an
//                          unfinished upload of the same file (a reload, a closed laptop) →
//                          offeringToContinue; none (or the lookup failed) → sending
//       offeringToContinue context.earlier (bytes kept of how many): CONTINUE_EARLIER → sending
//                          from there; START_OVER → sending from 0 (the earlier one is dropped)
//       sending            invokes actor `uploadFile` (id "uploadFile") for context.currentIndex;
//                          UPLOAD_PROGRESS {loaded, total, at} updates bytes sent, percent and time
//                          left; done or error → nextFile (an error is classified with
//                          classifyUploadError); PAUSE → paused
//         transferring     bytes going out. UPLOAD_RETRYING {delayMs, at} → waitingToRetry
//         waitingToRetry   the connection dropped; the actor retries with backoff by itself
//                          ("Connection lost, retrying in 8 s…"); UPLOAD_PROGRESS → transferring
//       paused             the actor is stopped (the server keeps what arrived); RESUME → sending,
//                          which continues from the server's offset
//       sendingPhotos      invokes actor `uploadPhotos` (id "uploadPhotos"): every photo in one
//                          request (a tus upload is one file), UPLOAD_PROGRESS counting the bytes
//                          of them all; done or error → nextFile with all of them handled. No
//                          pause: a multipart request cannot continue, only start again
//         transferring     bytes going out. UPLOAD_RETRYING → waitingToRetry
//         waitingToRetry   the connection dropped; the actor sends the request again from the
//                          start after a wait, by itself; UPLOAD_PROGRESS → transferring
//     cancelled            invokes actor `cancelUpload` (the server drops the unfinished upload's
//                          parts); shows that nothing of the file was stored. CLOSE → closed
//     (decide)             transient: summarizeUploadResults → processing | failed
//     processing           every file uploaded (context.uploadedFileIds); invokes actor
//                          `followProcessing` (id "followProcessing") until the server has read
//                          every page; its report → (reported)
//     (reported)           transient: a report with no problem → success, otherwise → warning
//     success              everything matched (graded) or nothing flagged (service center)
//     warning              context.report: counts and the next step
//     failed               context.errorType (spec §8), e.g. for the result banner. TRY_AGAIN →
//                          choosing with the files not uploaded still chosen (photos taken with a
//                          phone's camera are often nowhere else), so one can be removed and the
//                          rest sent again
//
// The screen supplies with .provide(): actor `uploadFile` (a resumable upload; it throws
// {status, body} for a refusal and anything else for a network failure it gave up on; it reports
// bytes sent through input.onProgress and each retry through input.onRetry), actors
// `findEarlierUpload` and `cancelUpload`, and actor `followProcessing` (waits for the server's processing
// of the uploaded ids and returns a ProcessingReport; an error there ends in success with no
// report: the upload itself worked), and actor `uploadPhotos` (one multipart request, throwing as
// `uploadFile` does). Leaving `sending` or `sendingPhotos` (CANCEL/CLOSE) stops the actor, which
// aborts its `signal`: the request is cancelled. Closing while processing leaves the server at it.
//
// Its parts: types in upload-dialog.types.ts, pure rules in upload-dialog.rules.ts, actors,
// actions and guards in upload-dialog.setup.ts, and open.uploading in upload-dialog.uploading.ts.
import { uploadDialogSetup } from './upload-dialog.setup';
import { freshContext, parseAcceptedTypes } from './upload-dialog.rules';
import type { FileLike } from './upload-dialog.types';
import { uploadingState } from './upload-dialog.uploading';

export const uploadDialogMachine = uploadDialogSetup.createMachine({
  id: 'uploadDialog',
  context: ({ input }) => freshContext(input.variant, parseAcceptedTypes(input.acceptedTypes)),
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN: 'open' },
    },
    open: {
      initial: 'starting',
      on: {
        CANCEL: { target: 'closed', actions: 'reset' },
        CLOSE: { target: 'closed', actions: 'reset' },
      },
      states: {
        starting: {
          always: [{ guard: 'isStudyHelperVariant', target: 'askingIntro' }, { target: 'choosing' }],
        },
        askingIntro: {
          on: { ANSWER_INTRO: { target: 'choosing', actions: 'answerIntro' } },
        },
        choosing: {
          on: {
            CHOOSE_FILES: { actions: 'chooseFiles' },
            ADD_PHOTOS: { actions: 'addPhotos' },
            REMOVE_PHOTO: { guard: 'hasPhoto', actions: 'removePhoto' },
            DROP_FILES: { actions: 'dropFiles' },
            REMOVE_FILE: { actions: 'removeFile' },
            CLEAR_FILES: { actions: 'clearFiles' },
            SELECT_STUDY_HELPER: { guard: 'isIntroUpload', actions: 'selectStudyHelper' },
            SET_PAGE_LENGTH: { guard: 'isServiceCenterVariant', actions: 'setPageLength' },
            UPLOAD: { guard: 'canUpload', target: 'uploading', actions: 'startUploading' },
          },
        },
        uploading: uploadingState,
        cancelled: {
          invoke: {
            id: 'cancelUpload',
            src: 'cancelUpload',
            input: ({ context }) => ({ variant: context.variant, file: context.files[context.currentIndex] as FileLike }),
          },
        },
        decide: {
          always: [
            { guard: 'allFilesUploaded', target: 'processing', actions: 'finishSuccess' },
            { target: 'failed', actions: 'finishFailure' },
          ],
        },
        processing: {
          invoke: {
            id: 'followProcessing',
            src: 'followProcessing',
            input: ({ context }) => ({ variant: context.variant, ids: context.uploadedFileIds }),
            onDone: { target: 'reported', actions: { type: 'keepReport', params: ({ event }) => ({ report: event.output }) } },
            // The files were uploaded; only following their processing failed.
            onError: { target: 'success' },
          },
        },
        reported: {
          always: [{ guard: 'reportHasProblems', target: 'warning' }, { target: 'success' }],
        },
        success: {},
        warning: {},
        failed: {
          on: { TRY_AGAIN: { target: 'choosing', actions: 'keepFilesNotUploaded' } },
        },
      },
    },
  },
});
