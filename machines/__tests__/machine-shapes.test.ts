// Each machine's states, as its header comment describes them, written here: a state lost,
// renamed or given another initial child fails this test. The modules are loaded inside the
// tests, so a machine that cannot even be built fails a test rather than the file's import.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';

type Node = { id: string; type: string; initial?: { target?: { key: string }[] }; states: Record<string, Node> };

/** "id:type" of every state node, with ">child" for a compound state's initial child. */
function shape(machine: { id: string; root: unknown }): string[] {
  const out: string[] = [];
  const visit = (node: Node) => {
    for (const child of Object.values(node.states)) {
      const initial = child.type === 'compound' ? `>${child.initial?.target?.[0]?.key}` : '';
      out.push(`${child.id}:${child.type}${initial}`);
      visit(child);
    }
  };
  visit(machine.root as Node);
  return out;
}

describe('machine shapes', () => {
  it('file workflow', async () => {
    const { fileWorkflowMachine } = await import('../file-workflow/file-workflow.machine');
    expect(fileWorkflowMachine.id).toBe('fileWorkflow');
    expect((fileWorkflowMachine.root as unknown as Node).initial?.target?.[0]?.key).toBe('loading');
    expect(shape(fileWorkflowMachine)).toEqual([
      'fileWorkflow.loading:atomic',
      'fileWorkflow.loadFailed:atomic',
      'fileWorkflow.routing:atomic',
      'fileWorkflow.robot:atomic',
      'fileWorkflow.review:atomic',
      'fileWorkflow.assign:atomic',
      'fileWorkflow.send:parallel',
      'fileWorkflow.send.request:compound>idle',
      'fileWorkflow.send.request.idle:atomic',
      'fileWorkflow.send.request.sending:atomic',
      'fileWorkflow.send.request.sent:atomic',
      'fileWorkflow.send.request.failed:atomic',
      'fileWorkflow.send.button:compound>sendEnabled',
      'fileWorkflow.send.button.sendEnabled:atomic',
      'fileWorkflow.send.button.sendLocked:atomic',
      'fileWorkflow.grading:atomic',
      'fileWorkflow.return:compound>idle',
      'fileWorkflow.return.idle:atomic',
      'fileWorkflow.return.downloading:atomic',
      'fileWorkflow.return.regenerating:atomic',
      'fileWorkflow.return.archiving:atomic',
      'fileWorkflow.archived:atomic',
    ]);
  });

  it('upload dialog', async () => {
    const { uploadDialogMachine } = await import('../upload-dialog/upload-dialog.machine');
    expect(uploadDialogMachine.id).toBe('uploadDialog');
    expect(shape(uploadDialogMachine)).toEqual([
      'uploadDialog.closed:atomic',
      'uploadDialog.open:compound>starting',
      'uploadDialog.open.starting:atomic',
      'uploadDialog.open.askingIntro:atomic',
      'uploadDialog.open.choosing:atomic',
      'uploadDialog.open.uploading:compound>nextFile',
      'uploadDialog.open.uploading.nextFile:atomic',
      'uploadDialog.open.uploading.lookingForEarlier:atomic',
      'uploadDialog.open.uploading.offeringToContinue:atomic',
      'uploadDialog.open.uploading.sending:compound>transferring',
      'uploadDialog.open.uploading.sending.transferring:atomic',
      'uploadDialog.open.uploading.sending.waitingToRetry:atomic',
      'uploadDialog.open.uploading.paused:atomic',
      'uploadDialog.open.uploading.sendingPhotos:compound>transferring',
      'uploadDialog.open.uploading.sendingPhotos.transferring:atomic',
      'uploadDialog.open.uploading.sendingPhotos.waitingToRetry:atomic',
      'uploadDialog.open.cancelled:atomic',
      'uploadDialog.open.decide:atomic',
      'uploadDialog.open.processing:atomic',
      'uploadDialog.open.reported:atomic',
      'uploadDialog.open.success:atomic',
      'uploadDialog.open.warning:atomic',
      'uploadDialog.open.failed:atomic',
    ]);
  });

  it('view as', async () => {
    const { viewAsMachine } = await import('../view-as/view-as.machine');
    expect(shape(viewAsMachine)).toEqual([
      'viewAs.idle:atomic',
      'viewAs.entering:atomic',
      'viewAs.exiting:atomic',
      'viewAs.error:atomic',
      'viewAs.done:final',
      'viewAs.exited:final',
    ]);
  });

  it('notifications and result banner', async () => {
    const { notificationsMachine } = await import('../notifications/notifications.machine');
    const { resultBannerMachine } = await import('../result-banner/result-banner.machine');
    expect(shape(notificationsMachine)).toEqual(['notifications.empty:atomic', 'notifications.showing:atomic']);
    expect(shape(resultBannerMachine)).toEqual([
      'resultBanner.hidden:atomic',
      'resultBanner.shown:atomic',
      'resultBanner.fading:atomic',
      'resultBanner.dismissed:atomic',
    ]);
  });
});

describe('a screen that forgets to supply an actor', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('file workflow: the load fails, logged with the actor it lacks', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fileWorkflowMachine } = await import('../file-workflow/file-workflow.machine');
    const actor = createActor(fileWorkflowMachine, { input: { fileId: 'file-1' } }).start();
    await waitFor(actor, (snapshot) => snapshot.matches('loadFailed'));
    expect(logged).toHaveBeenCalledWith('file workflow:', expect.objectContaining({ message: expect.stringContaining('"fetchSteps" must be supplied') }));
    expect(String(actor.getSnapshot().context.error)).toContain('file-workflow machine: "fetchSteps" must be supplied by the screen');
  });

  it.each(['sendFile', 'downloadReturnFile', 'regenerateFile', 'archiveFile'] as const)('file workflow: %s fails naming itself', async (id) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { fileWorkflowMachine } = await import('../file-workflow/file-workflow.machine');
    const implementations = (fileWorkflowMachine as unknown as { implementations: { actors: Record<string, unknown> } }).implementations.actors;
    expect(Object.keys(implementations).sort()).toEqual(['archiveFile', 'downloadReturnFile', 'fetchSteps', 'regenerateFile', 'sendFile']);
    const logic = implementations[id] as { config: (args: { input: unknown }) => Promise<unknown> };
    await expect(logic.config({ input: { fileId: 'file-1' } })).rejects.toThrow(`file-workflow machine: "${id}" must be supplied by the screen with .provide()`);
  });

  it('upload dialog and view as name the actor they lack', async () => {
    const { uploadDialogMachine } = await import('../upload-dialog/upload-dialog.machine');
    const { viewAsMachine } = await import('../view-as/view-as.machine');
    const upload = (uploadDialogMachine as unknown as { implementations: { actors: Record<string, { config: (args: unknown) => Promise<unknown> }> } }).implementations.actors;
    await expect(upload.uploadFile!.config({ input: {} })).rejects.toThrow('upload-dialog machine: "uploadFile" must be supplied by the screen with .provide()');
    const viewAs = viewAsMachine as unknown as {
      implementations: { actors: Record<string, { config: (args: unknown) => Promise<unknown> }>; actions: Record<string, () => void> };
    };
    await expect(viewAs.implementations.actors.setViewAs!.config({ input: {} })).rejects.toThrow('view-as machine: "setViewAs" must be supplied by the screen with .provide()');
    for (const name of ['reloadHome', 'navigateHome', 'reload']) {
      expect(() => viewAs.implementations.actions[name]!()).toThrow(`view-as machine: "${name}" must be supplied by the screen with .provide()`);
    }
  });
});
