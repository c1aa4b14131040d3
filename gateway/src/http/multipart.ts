// Reading a multipart/form-data upload of one image and a few small fields into memory (busboy): an upload the
// headers already condemn, or one its admission refuses (too many at once, the member's hourly allowance), is
// refused before any of its body is read; more than one file, or a file over the limit, is refused (413) as soon as
// busboy meets it, before the rest is read. Either way the rest of the body is discarded for a moment only (a
// lingering close, as nginx does) so the client reads the answer before the connection ends. The service that
// owns the image judges its bytes.
import type { IncomingHttpHeaders } from 'node:http';
import { IMAGE_MESSAGES } from '@rotunda/rules';
import busboy from 'busboy';
import type { Request } from 'express';
import { HttpError } from './errors.ts';

/** Multipart framing and the small fields around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** How long a refused upload's remaining bytes are read and thrown away after the answer, at most. */
const LINGER_MS = 2_000;

export interface UploadMessages {
  /** Not multipart/form-data: says which fields to send. */
  notMultipart: string;
  oneFile: string;
  tooManyFields: string;
  /** The body ended (or the client went away) before the closing boundary. */
  incomplete: string;
  /** Not well-formed multipart/form-data. */
  unreadable: string;
}

export const DEFAULT_UPLOAD_MESSAGES = {
  tooManyFields: 'The upload has too many form fields.',
  incomplete: 'The upload ended before its closing boundary. Please send it again.',
  unreadable: 'The upload could not be read: it is not well-formed multipart/form-data.',
} as const;

/** busboy's words for a body that stops short (its other errors are malformed framing). */
const CUT_SHORT = /^Unexpected end of (form|file)$/;

export interface UploadOptions {
  /** The form field holding the file; files under other names are skipped. */
  fileField: string;
  maxFileBytes: number;
  messages: UploadMessages;
  /** Asked once the headers pass and before any of the body is read: what it throws refuses the upload. */
  admit?: () => Promise<void>;
}

export interface Upload {
  file: Buffer | undefined;
  fields: Record<string, string>;
}

/**
 * Throws away what is left of a refused request's body, and closes the connection shortly after the answer unless
 * the body has ended by then. Closing at once would reset the connection under a client still sending, which then
 * never reads the answer; reading all of it would let a client keep the gateway busy.
 */
function discardBody(req: Request): void {
  req.resume();
  req.res?.once('finish', () => {
    if (req.complete) return;
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
  });
}

export async function readUpload(
  req: Request,
  { fileField, maxFileBytes, messages, admit }: UploadOptions,
): Promise<Upload> {
  try {
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) throw new HttpError(400, messages.notMultipart);
    const declared = Number(req.headers['content-length']);
    if (declared > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw new HttpError(413, IMAGE_MESSAGES.tooLarge);
    await admit?.();
  } catch (error) {
    discardBody(req);
    throw error;
  }
  return parseUpload(req, fileField, maxFileBytes, messages);
}

function parseUpload(
  req: Request,
  fileField: string,
  maxFileBytes: number,
  messages: UploadMessages,
): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers as IncomingHttpHeaders & { 'content-type': string },
        limits: { files: 1, fileSize: maxFileBytes, fields: 10, fieldSize: 1024, parts: 12 },
      });
    } catch {
      reject(new HttpError(400, messages.notMultipart));
      return;
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let file: Buffer | undefined;
    let done = false;
    const fail = (error: HttpError) => {
      if (done) return;
      done = true;
      req.unpipe(parser);
      discardBody(req);
      reject(error);
    };
    const refuse = (error: Error) =>
      fail(new HttpError(400, CUT_SHORT.test(error.message) ? messages.incomplete : messages.unreadable));
    parser.on('file', (name, stream) => {
      stream.on('error', refuse);
      if (name !== fileField) {
        stream.resume();
        return;
      }
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new HttpError(413, IMAGE_MESSAGES.tooLarge)));
      stream.on('end', () => {
        if (!done) file = Buffer.concat(chunks);
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(400, `${name} is too long.`));
      else fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new HttpError(413, messages.oneFile)));
    parser.on('fieldsLimit', () => fail(new HttpError(413, messages.tooManyFields)));
    parser.on('partsLimit', () => fail(new HttpError(413, messages.tooManyFields)));
    parser.on('error', refuse);
    // A client that disconnects mid-body leaves the parser waiting for an end that never comes.
    req.once('close', () => {
      if (!req.complete) fail(new HttpError(400, messages.incomplete));
    });
    req.on('error', () => fail(new HttpError(400, messages.incomplete)));
    parser.on('close', () => {
      if (done) return;
      done = true;
      resolve({ file, fields });
    });
    req.pipe(parser);
  });
}
