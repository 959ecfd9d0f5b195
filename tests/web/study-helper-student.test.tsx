// @vitest-environment happy-dom
// /study-helpers/{helper_id}/students/{student_id} on MSW: the spec leaves its content open; the
// screen names the student and the helper and links to the student's page.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Student } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const HELPER = 'd0000000-0000-4000-8000-000000000001';
const STUDENT = 'a0000000-0000-4000-8000-000000000001';
const kofi: Student = {
  id: STUDENT,
  human_id: 100245,
  name: 'Kofi Asante',
  country: null,
  congregation_id: null,
  congregation: null,
  study_helper: { id: HELPER, name: 'Sister Mary Jones' },
  latest_answer_sheet: null,
  created_at: '2024-01-05T00:00:00Z',
  attributes: {},
};

function api(student: Student | null) {
  server.use(
    http.get('*/api/students/:id', () =>
      student ? HttpResponse.json(student) : HttpResponse.json({ detail: 'Student not found' }, { status: 404 }),
    ),
    http.get('*/api/study-helpers/:id', () =>
      HttpResponse.json({ id: HELPER, name: 'Sister Mary Jones', email: 'x', student_count: 1, created_at: '2024-01-01T00:00:00Z' }),
    ),
  );
}

describe('study helper student', () => {
  it('names the student and the helper and links to the student', async () => {
    api(kofi);
    renderApp(`/study-helpers/${HELPER}/students/${STUDENT}`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Kofi Asante' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Study Helper Student' })).toBeTruthy();
    expect(await screen.findByText('Study helper: Sister Mary Jones')).toBeTruthy();
    expect(screen.getByText('100245')).toBeTruthy();
    expect(screen.getByRole('link', { name: "Open the student's page" }).getAttribute('href')).toBe(`/students/${STUDENT}`);
    expect(screen.getByRole('link', { name: 'Back to Study Helper' }).getAttribute('href')).toBe(`/study-helpers/${HELPER}`);
  });

  it('says so for an unknown student', async () => {
    api(null);
    renderApp(`/study-helpers/${HELPER}/students/${STUDENT}`);
    expect(await screen.findByRole('heading', { level: 1, name: `Sorry, can't find student ${STUDENT}` })).toBeTruthy();
  });
});
