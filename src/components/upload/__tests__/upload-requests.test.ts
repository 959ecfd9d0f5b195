import { describe, expect, it } from 'vitest';
import { photosRequest, photoUploadName, scannedAt } from '../upload-requests';
import { formatFileSize } from '../upload-file-list';

describe('upload requests', () => {
  it('sends scanned_at as the ISO time of the file\'s modified date', () => {
    expect(scannedAt({ lastModified: 1_700_000_000_000 })).toBe('2023-11-14T22:13:20.000Z');
  });
  it('writes sizes as people read them', () => {
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(2_048)).toBe('2.0 KB');
    expect(formatFileSize(1_500_000_001)).toBe('1.5 GB');
  });
});

describe('photos in one multipart request', () => {
  const photo = (name: string, lastModified: number) => Object.assign(new File([new Uint8Array(10)], name, { type: 'image/jpeg', lastModified }));

  it('repeats the field `file` in the order the photos were chosen, as the generated client does', () => {
    const photos = [photo('image.jpg', 3), photo('image.jpg', 1), photo('page.png', 2)];
    const { url, form } = photosRequest({ variant: 'study_helper', photos, answerSheetPageLength: 0, isIntro: true, studyHelperId: 'sh-1' });
    expect(url).toBe('/api/study-helpers/file');
    expect(form.getAll('file').map((part) => (part as File).lastModified)).toEqual([3, 1, 2]);
    expect(form.get('study_helper')).toBe('sh-1');
    expect(form.get('name')).toMatch(/^3 photos, /);
  });

  it('dates a service center\'s photos by the first taken', () => {
    const { url, form } = photosRequest({
      variant: 'service_center',
      photos: [photo('b.jpg', 1_700_000_060_000), photo('a.jpg', 1_700_000_000_000)],
      answerSheetPageLength: 2,
      isIntro: false,
      studyHelperId: null,
    });
    expect(url).toBe('/api/file');
    expect(form.get('scanned_at')).toBe('2023-11-14T22:13:20.000Z');
    expect(form.get('answer_sheet_page_length')).toBe('2');
    expect(form.has('study_helper')).toBe(false);
  });

  it('names photos by their count and when the last was taken', () => {
    expect(photoUploadName([{ lastModified: Date.UTC(2026, 10, 27, 9, 0) }])).toMatch(/^1 photo, Nov 27, 2026, /);
  });
});
