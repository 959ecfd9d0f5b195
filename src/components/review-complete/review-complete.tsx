// Review ends with a word (issue 31): when the last flag of a file is mended while a person is
// working through it, this says so and what comes next, and leaves them where they are; they go
// on to the file when they choose. It speaks only of files seen in Review in this session (a
// mend may move the person to another response, so what was seen outlives one screen).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Message } from 'primereact/message';
import type { WorkflowStep } from '../../../generated/hooks/model';
import { paths } from '../../config/paths';
import { fileQueries } from '../../lib/queries';

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

/** Files this session saw in Review. */
const seenInReview = new Set<string>();

/** `step`: the file's step when the screen already follows it (the file detail's stepper): no request of its own. */
export function ReviewComplete({ fileId, linkToFile = true, step }: { fileId: string; linkToFile?: boolean; step?: WorkflowStep | null }) {
  const steps = useQuery({ ...fileQueries.steps(fileId), enabled: fileId !== '' && step === undefined });
  const now = step === undefined ? steps.data?.step : (step ?? undefined);
  if (now === 'review') seenInReview.add(fileId);
  const text = reviewEndText(seenInReview.has(fileId) ? 'review' : undefined, now);
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
