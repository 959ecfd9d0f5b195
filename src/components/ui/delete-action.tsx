// Deleting (or withdrawing) a record made by mistake: a danger button, the spec's confirmation
// "Are you sure you want to delete this … ? This action cannot be undone." (spec §5), then the
// call. A refusal shows the server's own message (409: the record is in use, or it is too late).
// The screen offers it only to a role whose call allows it (mostly admins; a coordinator withdraws its uploads).
import { useState, type MouseEvent } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useNotifications } from '../notifications/notifications-context';
import { refusalMessage } from '../../lib/refusal';

export const deleteQuestion = (what: string, verb = 'delete') => `Are you sure you want to ${verb} this ${what}? This action cannot be undone.`;

const titled = (words: string) => words.replace(/(^|\s)\S/g, (first) => first.toUpperCase());

export interface DeleteActionProps {
  /** What is deleted, in the question and messages: "congregation", "study helper". */
  what: string;
  /** The record's name, for the button's label and the confirmation that it went. */
  name: string;
  /** The call; its promise rejects with the server's answer. */
  run: () => Promise<unknown>;
  /** After the record went (refresh the list). */
  onDone?: () => void;
  /** "Delete" by default; "Withdraw" for an upload, "Take Back" for a send. */
  verb?: string;
  /** Show the verb beside the icon (a page action) rather than the icon alone (a row). */
  labelled?: boolean;
  /** The confirmation's own question, when the spec's one does not say enough (what withdrawing does). */
  question?: string;
}

export function DeleteAction({ what, name, run, onDone, verb = 'Delete', labelled = false, question }: DeleteActionProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const { notify } = useNotifications();
  const past = verb === 'Delete' ? 'deleted' : verb === 'Withdraw' ? 'withdrawn' : 'done';

  const accept = async () => {
    setBusy(true);
    try {
      await run();
      notify(`${what[0]!.toUpperCase()}${what.slice(1)} ${name} ${past}.`, { severity: 'success' });
      onDone?.();
    } catch (error) {
      notify(refusalMessage(error, `The ${what} could not be ${past === 'done' ? 'changed' : past}. Please try again.`), { severity: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // The row around it may be a link: a click in here (the dialog included) stays here.
  const stay = (event: MouseEvent) => event.stopPropagation();
  return (
    <span onClick={stay}>
      <Button
        type="button"
        icon="pi pi-trash"
        label={labelled ? verb : undefined}
        text={!labelled}
        rounded={!labelled}
        outlined={labelled}
        severity="danger"
        loading={busy}
        disabled={busy}
        aria-label={`${verb} ${name}`}
        onClick={() => setAsking(true)}
      />
      <ConfirmDialog
        visible={asking}
        onHide={() => setAsking(false)}
        header={`${verb} ${titled(what)}`}
        message={question ?? deleteQuestion(what, verb.toLowerCase())}
        icon="pi pi-exclamation-triangle"
        acceptLabel={verb}
        rejectLabel="Cancel"
        accept={() => void accept()}
      />
    </span>
  );
}
