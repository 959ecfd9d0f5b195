// Downloads in tests: downloadPdf clicks a temporary link; happy-dom would follow it and leave the
// page's origin, so the click is caught here and the file name it would save under recorded.
import { vi } from 'vitest';

export function captureDownloads(): string[] {
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}
