import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import type { CsvDownload, DownloadFormat, DownloadTarget } from './csv-download';
import { cellParts } from '../render/cell-parts';

/**
 * Writes a download as the JSON interface's list envelope, `{"response":[…],"count":n}`: one
 * object per row of the CSV file, keyed by its headers, with the same values (numbers as numbers,
 * an empty field as null), so a dashboard reads the file's figures without parsing CSV. Streamed a
 * part of a page at a time with back-pressure, like the CSV file; the first page is read before
 * the first byte, so a refusal there is still the error envelope.
 */
export async function writeJson<T>(
  download: CsvDownload<T>,
  { open, signal }: DownloadTarget,
): Promise<number> {
  const headers = download.columns.map(([header]) => header);
  let out: NodeJS.WritableStream | undefined;
  // Written by hand with back-pressure, as writeCsv does: a download's response already carries
  // the listeners of the app's middleware, and a stream pipeline would add its own on top.
  const write = async (text: string) => {
    if (!out!.write(text)) await once(out!, 'drain', { signal });
  };
  const start = async () => {
    out = open();
    await write('{"response":[');
  };
  let count = 0;
  for await (const rows of download.pages) {
    if (!out) await start();
    for (const part of cellParts(rows, (row) => download.columns.map(([, value]) => value(row)))) {
      const items = part.map((cells) =>
        JSON.stringify(Object.fromEntries(headers.map((header, i) => [header, cells[i]]))),
      );
      await write((count > 0 ? ',' : '') + items.join(','));
      count += part.length;
      await setImmediate(undefined, { signal });
    }
  }
  if (!out) await start();
  out!.end(`],"count":${count}}`);
  return count;
}

export const JSON_DOWNLOAD: DownloadFormat = {
  extension: 'json',
  attachment: false,
  contentType: 'application/json; charset=utf-8',
  description:
    'The rows as the JSON envelope `{"response": [...], "count": n}`: an object per row of the CSV file, keyed by its column names, numbers as numbers, an empty field as null',
  write: writeJson,
};
