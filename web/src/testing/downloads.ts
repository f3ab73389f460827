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

/**
 * A saved file's text. Under jsdom, Node 20's fetch hands back Node's own Blob, which reads
 * itself, and Node 24's hands back jsdom's, which only jsdom's FileReader reads.
 */
export async function textOf(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error('The blob could not be read', { cause: reader.error }));
    reader.readAsText(blob);
  });
}
