// @vitest-environment happy-dom
// /responses/{response_id}/student-info on MSW (spec §2, §5): the student's attributes, editable
// except Country, Recruiter and Recruiting Point; Save sends only the changed fields and is
// disabled without changes; the back link to the file's responses, file tabs and quick links.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { chooseOption } from './support/dropdown';
import { FILE_ID, responseRecord, studentRecord } from './support/fixtures';

setupMockApi();

function api() {
  const response = responseRecord();
  const student = studentRecord();
  const patches: unknown[] = [];
  server.use(
    http.get(`*/api/answer-sheets/${response.id}`, () => HttpResponse.json(response)),
    http.get(`*/api/students/${student.id}`, () => HttpResponse.json(student)),
    http.patch(`*/api/students/${student.id}`, async ({ request }) => {
      const body = (await request.json()) as { attributes: object };
      patches.push(body);
      return HttpResponse.json({ ...student, attributes: { ...student.attributes, ...body.attributes } });
    }),
  );
  return { response, student, patches };
}

describe('student info of a response', () => {
  it('shows the attributes; Country, Recruiter and Recruiting Point are read-only', async () => {
    const { response } = api();
    renderApp(`/responses/${response.id}/student-info`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Student Info' })).toBeTruthy();
    const form = within(await screen.findByRole('form', { name: 'Attributes' }));
    expect((form.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Mensah');
    expect((form.getByLabelText('Age') as HTMLInputElement).value).toBe('31');
    for (const label of ['Name', 'Address', 'Email', 'Phone', 'Birthdate', 'Age', 'Gender', 'Relationship Status', 'Employment', 'Has Bible', 'Study Helper']) {
      expect(form.getByLabelText(label)).toBeTruthy();
    }
    for (const [label, value] of [
      ['Country', 'Ghana'],
      ['Recruiter', 'Brother Kofi'],
      ['Recruiting Point', 'Kumasi Market'],
    ] as const) {
      expect(form.queryByRole('textbox', { name: label })).toBeNull();
      expect(form.getByLabelText(label).textContent).toBe(value);
    }
  });

  it("shows the student's study helper as Study Helper, read-only (chosen on the student's card)", async () => {
    const response = responseRecord();
    const student = { ...studentRecord(), study_helper: { id: 'd0000000-0000-4000-8000-000000000001', name: 'Sister Mary Jones' } };
    server.use(
      http.get(`*/api/answer-sheets/${response.id}`, () => HttpResponse.json(response)),
      http.get(`*/api/students/${student.id}`, () => HttpResponse.json({ ...student, attributes: { ...student.attributes, study_helper: 'Someone Else' } })),
    );
    renderApp(`/responses/${response.id}/student-info`, { as: 'admin' });
    const form = within(await screen.findByRole('form', { name: 'Attributes' }));
    expect(form.queryByRole('textbox', { name: 'Study Helper' })).toBeNull();
    expect(form.getByLabelText('Study Helper').textContent).toBe('Sister Mary Jones');
  });

  it('saves only the changed fields, and Save is disabled without changes', async () => {
    const { response, student, patches } = api();
    renderApp(`/responses/${response.id}/student-info`, { as: 'admin' });
    const form = within(await screen.findByRole('form', { name: 'Attributes' }));
    const save = () => form.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    fireEvent.change(form.getByLabelText('Phone'), { target: { value: '+233 20 111 1111' } });
    fireEvent.change(form.getByLabelText('Age'), { target: { value: '32' } });
    await chooseOption(form.getByLabelText('Has Bible'), 'No');
    expect(save().disabled).toBe(false);
    fireEvent.click(save());
    await waitFor(() => expect(patches).toEqual([{ attributes: { phone: '+233 20 111 1111', age: 32, has_bible: 'no' } }]));
    await waitFor(() => expect(save().disabled).toBe(true));
    void student;
  });

  it('has the back link to the file\'s responses, the file tabs and quick links', async () => {
    const { response } = api();
    renderApp(`/responses/${response.id}/student-info`, { as: 'admin' });
    expect((await screen.findByRole('link', { name: 'Back to Responses' })).getAttribute('href')).toBe(`/file/${FILE_ID}/responses`);
    expect(within(screen.getByRole('navigation', { name: 'File menu' })).getByRole('link', { name: 'Responses' })).toBeTruthy();
    const links = within(screen.getByRole('navigation', { name: 'Quick links' }));
    expect(links.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Response', `/responses/${response.id}`],
      ['Student', '/students/s0000000-0000-4000-8000-000000000001'],
      ['File', `/file/${FILE_ID}`],
    ]);
  });
});
