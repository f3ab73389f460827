import { onTestFinished, vi } from 'vitest';

/**
 * What a download saved: jsdom has no object URLs, and a click on a download link would try to
 * navigate, so both are caught here and the file's content and name kept.
 */
export function captureDownloads(): { blob?: Blob; name?: string } {
  const saved: { blob?: Blob; name?: string } = {};
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        saved.blob = blob;
        return 'blob:download';
      },
      revokeObjectURL: () => {},
    }),
  );
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.name = this.download;
  });
  onTestFinished(() => click.mockRestore());
  return saved;
}
