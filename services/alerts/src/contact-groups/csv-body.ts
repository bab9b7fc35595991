import type { Request } from 'express';
import { AppError, badRequest, textProblem } from '@beacon/common';
import { CONTACT_IMPORT_LIMITS } from '@beacon/contracts';

/** What the import preview reads: a CSV file sent as it is (text/csv; text/plain from a client that says so). */
export const CSV_BODY_TYPES = ['text/csv', 'text/plain'];

const tooLarge = () =>
  new AppError(413, 'import_too_large', `The file is larger than ${CONTACT_IMPORT_LIMITS.maxBytes / (1024 * 1024)} MB: split it into several files`);

/**
 * The request's body as text: a CSV file of at most CONTACT_IMPORT_LIMITS.maxBytes in UTF-8. Read here rather than by
 * a body parser of the service: the shared ones are JSON's, at JSON's limit. A larger body is refused (413) as soon as
 * it is known to be, by its declared length or by counting, and the rest of it is read and dropped so the answer
 * reaches the client.
 */
export async function readCsvBody(req: Request): Promise<string> {
  // the header itself: req.is() answers null for an empty body, which is an empty file here
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!CSV_BODY_TYPES.includes(type)) {
    throw new AppError(415, 'unsupported_media_type', 'Send the file as it is, with Content-Type: text/csv');
  }
  if (Number(req.headers['content-length']) > CONTACT_IMPORT_LIMITS.maxBytes) {
    req.resume();
    throw tooLarge();
  }
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > CONTACT_IMPORT_LIMITS.maxBytes) {
        // left flowing with no listener: the rest is read and dropped (destroying the request would lose the answer)
        req.off('data', onData);
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw badRequest('The file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"', 'import_csv_invalid');
  }
  const problem = textProblem(text);
  if (problem) throw new AppError(400, 'invalid_characters', problem);
  return text;
}
