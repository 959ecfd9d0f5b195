import { describe, expect, it } from 'vitest';
import { scannedAt } from '../upload-requests';
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
