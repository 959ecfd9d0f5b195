// @vitest-environment happy-dom
// /students/{student_id}/ on MSW (spec §2, §3, §5, §6, §9): the back link, the Student card and its
// pickers per role, the Details card of uploads, the Attributes form that sends only changed
// fields with its 2 s saved indicator, and the missing-student message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AnswerSheet, Student, StudentPatch, StudyHelperList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { formatDateTime } from '../../src/lib/format';
import { SAVED_INDICATOR_MS } from '../../machines/constants';

setupMockApi();
afterEach(() => vi.restoreAllMocks());

const ID = 'a0000000-0000-4000-8000-000000000001';
const GROUP = 'c0000000-0000-4000-8000-000000000001';
const mary = { id: 'd0000000-0000-4000-8000-000000000001', name: 'Sister Mary Jones' };
const john = { id: 'd0000000-0000-4000-8000-000000000002', name: 'Brother John Ofori' };

const kofi: Student = {
  id: ID,
  human_id: 100245,
  name: 'Kofi Asante',
  country: { iso_code: 'GH', display_name: 'Ghana' },
  congregation_id: GROUP,
  congregation: { id: GROUP, wbs_code: 'US 1234' },
  study_helper: mary,
  latest_answer_sheet: {
    file: {
      service_center: { id: 's1', name: 'Accra Service Center' },
      recruiting_point: { id: 'p1', name: 'Makola Market stand' },
      recruiter: { id: 'r1', name: 'Ama Owusu' },
      uploaded_at: '2024-03-01T10:00:00Z',
    },
    lesson: { id: 'l3', name: 'Lesson 3' },
  },
  created_at: '2024-01-05T00:00:00Z',
  attributes: { name: 'Kofi Asante', phone: '+233 24 000 0000', age: 35, gender: 'his_Male', has_bible: 'yes' },
};

const sheet = (n: number, graded: boolean): AnswerSheet => ({
  id: `e0000000-0000-4000-8000-00000000000${n}`,
  file_id: 'f0000000-0000-4000-8000-000000000001',
  file: { name: 'Accra batch', uploaded_at: `2024-03-0${n}T10:00:00Z` },
  student: { id: ID, human_id: 100245, name: 'Kofi Asante', study_helper: mary },
  lesson: { id: `l${n}`, name: `Lesson ${n}` },
  congregation: null,
  graded,
  assigned_group: null,
  is_baptism_request: false,
});

/** The student's calls: GET answers `current`, PATCH records its body and answers the patched student. */
function studentApi(options: { student?: Student | null; patchStatus?: number } = {}) {
  let current = options.student === undefined ? kofi : options.student;
  const patches: StudentPatch[] = [];
  server.use(
    http.get('*/api/students/:id', () =>
      current ? HttpResponse.json(current) : HttpResponse.json({ detail: 'Student not found' }, { status: 404 }),
    ),
    http.get('*/api/students/:id/answer-sheets', () => HttpResponse.json([sheet(2, true), sheet(1, false)])),
    http.get('*/api/study-helpers', () =>
      HttpResponse.json<StudyHelperList>({
        items: [mary, john].map((h) => ({ ...h, email: 'x@example.org', student_count: 1, created_at: '2024-01-01T00:00:00Z' })),
        total: 2,
        skip: 0,
        limit: 50,
      }),
    ),
    http.get('*/api/study-helpers/:id', ({ params }) =>
      HttpResponse.json({ ...(params.id === john.id ? john : mary), email: 'x', student_count: 1, created_at: '2024-01-01T00:00:00Z' }),
    ),
    http.patch('*/api/students/:id', async ({ request }) => {
      const body = (await request.json()) as StudentPatch;
      patches.push(body);
      if (options.patchStatus) return HttpResponse.json({ detail: 'boom' }, { status: options.patchStatus });
      if (current && 'attributes' in body) current = { ...current, attributes: { ...current.attributes, ...body.attributes } };
      if (current && 'study_helper' in body) {
        current = { ...current, study_helper: body.study_helper === john.id ? john : body.study_helper ? mary : null };
      }
      if (current && 'congregation' in body) current = { ...current, congregation_id: body.congregation };
      return HttpResponse.json(current);
    }),
  );
  return patches;
}

async function open(as: 'admin' | 'coordinator' = 'admin', options?: Parameters<typeof studentApi>[0]) {
  const patches = studentApi(options);
  const result = renderApp(`/students/${ID}/`, { as });
  await screen.findByRole('region', { name: 'Student' });
  return { patches, ...result };
}

const MOVE_NOTE = 'Responses not sent yet move with the student; responses already sent keep their congregation.';
const card = () => within(screen.getByRole('region', { name: 'Student' }));
const form = () => within(screen.getByRole('form', { name: 'Attributes' }));
const saveButton = () => form().getByRole('button', { name: 'Save' }) as HTMLButtonElement;

/**
 * Chooses an option of a PrimeReact dropdown found by its label (its panel opens in a portal). A
 * dropdown ignores clicks while its options load, so wait for them first.
 */
async function choose(container: ReturnType<typeof within>, label: string, option: string) {
  const dropdown = container.getByLabelText(label).closest('.p-dropdown') as HTMLElement;
  await waitFor(() => expect(dropdown.querySelector('[data-pc-section="loadingicon"]')).toBeNull());
  fireEvent.click(dropdown);
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The text a PrimeReact dropdown shows for its value. */
const shownValue = (label: string) =>
  (form().getByLabelText(label).closest('.p-dropdown') as HTMLElement).querySelector('.p-dropdown-label')?.textContent;

describe('student detail', () => {
  it('shows the back link and the Student card', async () => {
    await open('admin');
    expect(screen.getByRole('link', { name: 'Back to Students' }).getAttribute('href')).toBe('/students');
    expect(screen.getByRole('heading', { level: 1, name: 'Student' })).toBeTruthy();
    const facts = Array.from(screen.getByRole('region', { name: 'Student' }).querySelectorAll('dt')).map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);
    expect(facts).toEqual([
      ['ID', '100245'],
      ['Country', 'Ghana'],
      ['Recruiter', 'Ama Owusu'],
      ['Recruiting Point', 'Makola Market stand'],
    ]);
    expect(card().getByRole('img', { name: 'Ghana' })).toBeTruthy();
    expect(card().getByLabelText('Congregation')).toBeTruthy();
    expect(card().getByText(MOVE_NOTE)).toBeTruthy();
    expect(card().getByLabelText('Study Helper')).toBeTruthy();
  });

  it('offers the congregation picker to admins only', async () => {
    await open('coordinator');
    expect(card().queryByText(MOVE_NOTE)).toBeNull();
    expect(card().queryByLabelText('Congregation')).toBeNull();
    expect(card().getByLabelText('Study Helper')).toBeTruthy();
  });

  it('lists the uploads as "Lesson: {name}" and "Time: {date}", linking to their scans', async () => {
    await open();
    const details = within(screen.getByRole('region', { name: 'Details' }));
    const links = await details.findAllByRole('link', { name: /^Lesson:/ });
    expect(links.map((link) => link.textContent)).toEqual([
      `Lesson: Lesson 2Time: ${formatDateTime('2024-03-02T10:00:00Z')}`,
      `Lesson: Lesson 1Time: ${formatDateTime('2024-03-01T10:00:00Z')}`,
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `/students/${ID}/uploads/${sheet(2, true).id}`,
      `/students/${ID}/uploads/${sheet(1, false).id}`,
    ]);
    expect(details.getByText('Lesson: Lesson 2')).toBeTruthy();
    expect(details.getAllByRole('link', { name: 'Graded scans' }).map((link) => link.getAttribute('href'))).toEqual([
      `/students/${ID}/graded/${sheet(2, true).id}`,
    ]);
  });

  it('sets the study helper with PATCH {study_helper}', async () => {
    const { patches } = await open('coordinator');
    await choose(card(), 'Study Helper', 'Brother John Ofori');
    await waitFor(() => expect(patches).toEqual([{ study_helper: john.id }]));
    expect(await screen.findByText('Study helper saved.')).toBeTruthy();
  });

  it('sets the congregation with PATCH {congregation} (admin)', async () => {
    server.use(
      http.get('*/api/congregations', () =>
        HttpResponse.json({
          items: [
            { id: GROUP, wbs_code: 'US 1234', display_name: 'Springfield North', created_at: '2024-01-01T00:00:00Z' },
            { id: 'c0000000-0000-4000-8000-000000000002', wbs_code: 'GH 5678', display_name: 'Accra Central', created_at: '2024-01-01T00:00:00Z' },
          ],
          total: 2,
          skip: 0,
          limit: 50,
        }),
      ),
    );
    const { patches } = await open('admin');
    await choose(card(), 'Congregation', 'GH 5678 (Accra Central)');
    await waitFor(() => expect(patches).toEqual([{ congregation: 'c0000000-0000-4000-8000-000000000002' }]));
  });

  it("shows the card's study helper as the form's Study Helper, read-only, and follows a change", async () => {
    const { patches } = await open('coordinator');
    const helperName = () => form().getByLabelText('Study Helper');
    expect(helperName().textContent).toBe(mary.name);
    expect(form().queryByRole('textbox', { name: 'Study Helper' })).toBeNull();
    expect(form().getByText('Chosen on the Student card.')).toBeTruthy();
    await choose(card(), 'Study Helper', 'Brother John Ofori');
    await waitFor(() => expect(helperName().textContent).toBe('Brother John Ofori'));
    // The form never sends a study helper name of its own.
    fireEvent.change(form().getByLabelText('Phone'), { target: { value: '+233 20 111 2222' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(patches.at(-1)).toEqual({ attributes: { phone: '+233 20 111 2222' } }));
  });

  it('says so when a new congregation ends the study helper link', async () => {
    const other = 'c0000000-0000-4000-8000-000000000002';
    server.use(
      http.get('*/api/congregations', () =>
        HttpResponse.json({
          items: [
            { id: GROUP, wbs_code: 'US 1234', display_name: 'Springfield North', created_at: '2024-01-01T00:00:00Z' },
            { id: other, wbs_code: 'GH 5678', display_name: 'Accra Central', created_at: '2024-01-01T00:00:00Z' },
          ],
          total: 2,
          skip: 0,
          limit: 50,
        }),
      ),
    );
    await open('admin');
    // As the server does: a helper belongs to one congregation, so moving the student ends the link.
    server.use(http.patch('*/api/students/:id', () => HttpResponse.json({ ...kofi, congregation_id: other, study_helper: null })));
    await choose(card(), 'Congregation', 'GH 5678 (Accra Central)');
    expect(
      await screen.findByText(
        `Congregation saved. ${mary.name} is no longer the study helper: a study helper belongs to one congregation. Choose one of the new congregation's helpers.`,
      ),
    ).toBeTruthy();
    await waitFor(() => expect(form().getByLabelText('Study Helper').textContent).toBe('—'));
  });

  it('fills the Attributes form, coded values by their labels', async () => {
    await open();
    expect((form().getByLabelText('Name') as HTMLInputElement).value).toBe('Kofi Asante');
    expect((form().getByLabelText('Phone') as HTMLInputElement).value).toBe('+233 24 000 0000');
    expect((form().getByLabelText('Age') as HTMLInputElement).value).toBe('35');
    expect((form().getByLabelText('Address') as HTMLInputElement).value).toBe('');
    expect(shownValue('Gender')).toBe('Male');
    expect(shownValue('Has Bible')).toBe('Yes');
    expect(shownValue('Relationship Status')).toBe('Not given');
    for (const label of ['Email', 'Birthdate', 'Relationship Status', 'Employment', 'Study Helper', 'Recruiter', 'Recruiting Point', 'Country']) {
      expect(form().getByLabelText(label)).toBeTruthy();
    }
  });

  it('keeps Save disabled until something changed, and sends only the changed fields', async () => {
    const { patches } = await open();
    expect(saveButton().disabled).toBe(true);
    const phone = form().getByLabelText('Phone');
    fireEvent.change(phone, { target: { value: '+233 20 111 2222' } });
    expect(saveButton().disabled).toBe(false);
    fireEvent.change(phone, { target: { value: '+233 24 000 0000' } });
    expect(saveButton().disabled).toBe(true);

    fireEvent.change(phone, { target: { value: '+233 20 111 2222' } });
    fireEvent.change(form().getByLabelText('Address'), { target: { value: '12 Palm Street' } });
    await choose(form(), 'Gender', 'Female');
    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(patches).toEqual([
        { attributes: { address: '12 Palm Street', phone: '+233 20 111 2222', gender: 'her_Female' } },
      ]),
    );
    const saved = await form().findByRole('status');
    expect(saved.textContent?.trim()).toBe('Saved');
    expect(saveButton().disabled).toBe(true);
    expect((form().getByLabelText('Phone') as HTMLInputElement).value).toBe('+233 20 111 2222');
  });

  it('shows the saved indicator for 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await open();
      fireEvent.change(form().getByLabelText('Employment'), { target: { value: 'Teacher' } });
      fireEvent.click(saveButton());
      await form().findByRole('status');
      await vi.advanceTimersByTimeAsync(SAVED_INDICATOR_MS - 500);
      expect(form().queryByRole('status')).toBeTruthy();
      await vi.advanceTimersByTimeAsync(600);
      // A short wait only: fake time moves on with real time, and a long wait would hide a late timer.
      await waitFor(() => expect(form().queryByRole('status')).toBeNull(), { timeout: 250 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('empties a field as null and refuses an age out of range', async () => {
    const { patches } = await open();
    const age = form().getByLabelText('Age');
    fireEvent.change(age, { target: { value: '200' } });
    expect(form().getByText('Enter a whole number from 0 to 150.')).toBeTruthy();
    expect(age.getAttribute('aria-invalid')).toBe('true');
    expect(saveButton().disabled).toBe(true);
    fireEvent.change(age, { target: { value: '' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(patches).toEqual([{ attributes: { age: null } }]));
  });

  it('only logs a failed save and keeps the changes', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { patches } = await open('admin', { patchStatus: 500 });
    fireEvent.change(form().getByLabelText('Employment'), { target: { value: 'Teacher' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(patches).toEqual([{ attributes: { employment: 'Teacher' } }]);
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    expect(form().queryByRole('status')).toBeNull();
    expect((form().getByLabelText('Employment') as HTMLInputElement).value).toBe('Teacher');
  });

  it('says "Sorry, can\'t find student {id}" for a missing student', async () => {
    studentApi({ student: null });
    renderApp(`/students/${ID}/`);
    expect(await screen.findByRole('heading', { level: 1, name: `Sorry, can't find student ${ID}` })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Students' })).toBeTruthy();
  });
});
