// @vitest-environment happy-dom
// /students/{student_id}/uploads/{upload_id} and /students/{student_id}/graded/{upload_id} on MSW
// (spec §2, §7): the answer sheet's page scans (/api/pages/{id}/preview) and its graded scans,
// front and back (/api/pages/{id}/graded-preview, ?is_back=true), each image with alt text.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AnswerSheet, Page } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const STUDENT = 'a0000000-0000-4000-8000-000000000001';
const SHEET = 'e0000000-0000-4000-8000-000000000001';

const answerSheet: AnswerSheet = {
  id: SHEET,
  file_id: 'f0000000-0000-4000-8000-000000000001',
  file: { name: 'Accra batch', uploaded_at: '2024-03-01T10:00:00Z' },
  student: { id: STUDENT, human_id: 100245, name: 'Kofi Asante', study_helper: null },
  lesson: { id: 'l3', name: 'Lesson 3' },
  congregation: null,
  graded: true,
  assigned_group: null,
  is_baptism_request: false,
};

const page = (n: number, feedback: { has_back: boolean }[]): Page => ({
  id: `90000000-0000-4000-8000-00000000000${n}`,
  page_number: n,
  ignored: false,
  template: null,
  answer_sheet: null,
  feedback_pages: feedback.map((f, i) => ({
    id: `fb000000-0000-4000-8000-00000000000${n}${i}`,
    has_back: f.has_back,
    feedback: { created_at: '2024-03-10T10:00:00Z' },
  })),
});

function sheetApi(pages: Page[], found = true) {
  server.use(
    http.get('*/api/answer-sheets/:id', () =>
      found ? HttpResponse.json(answerSheet) : HttpResponse.json({ detail: 'Not found' }, { status: 404 }),
    ),
    http.get('*/api/answer-sheets/:id/pages', () =>
      found ? HttpResponse.json(pages) : HttpResponse.json({ detail: 'Not found' }, { status: 404 }),
    ),
  );
}

const images = () => screen.getAllByRole('img').filter((img) => img.getAttribute('src')?.startsWith('/api/pages/'));

describe('answer sheet scans', () => {
  it('shows every page\'s scan in page order, each with alt text', async () => {
    sheetApi([page(2, []), page(1, [])]);
    renderApp(`/students/${STUDENT}/uploads/${SHEET}`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Answer Sheet Scans' })).toBeTruthy();
    await screen.findByText('Page 1');
    expect(images().map((img) => [img.getAttribute('src'), img.getAttribute('alt')])).toEqual([
      [`/api/pages/${page(1, []).id}/preview`, 'Scan of page 1, Lesson 3'],
      [`/api/pages/${page(2, []).id}/preview`, 'Scan of page 2, Lesson 3'],
    ]);
    expect(screen.getByText(/^Lesson: Lesson 3 · Time: /)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Student' }).getAttribute('href')).toBe(`/students/${STUDENT}`);
  });

  it('says so for an unknown upload', async () => {
    sheetApi([], false);
    renderApp(`/students/${STUDENT}/uploads/${SHEET}`);
    expect(await screen.findByText('This upload could not be found.')).toBeTruthy();
  });

  it('says so for an upload without pages', async () => {
    sheetApi([]);
    renderApp(`/students/${STUDENT}/uploads/${SHEET}`);
    expect(await screen.findByText('This upload has no pages.')).toBeTruthy();
  });
});

describe('graded scans', () => {
  it('shows the graded front of each graded page, and its back when there is one', async () => {
    sheetApi([page(1, [{ has_back: true }]), page(2, [{ has_back: false }]), page(3, [])]);
    renderApp(`/students/${STUDENT}/graded/${SHEET}`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Graded Scans' })).toBeTruthy();
    await screen.findByText('Page 1, Front');
    expect(images().map((img) => [img.getAttribute('src'), img.getAttribute('alt')])).toEqual([
      [`/api/pages/${page(1, []).id}/graded-preview`, 'Graded scan of page 1, front, Lesson 3'],
      [`/api/pages/${page(1, []).id}/graded-preview?is_back=true`, 'Graded scan of page 1, back, Lesson 3'],
      [`/api/pages/${page(2, []).id}/graded-preview`, 'Graded scan of page 2, front, Lesson 3'],
    ]);
    expect(screen.getByText('Page 1, Back')).toBeTruthy();
    expect(screen.queryByText(/Page 3/)).toBeNull();
  });

  it('says so when nothing is graded yet', async () => {
    sheetApi([page(1, [])]);
    renderApp(`/students/${STUDENT}/graded/${SHEET}`);
    expect(await screen.findByText('There are no graded scans for this upload yet.')).toBeTruthy();
  });
});
