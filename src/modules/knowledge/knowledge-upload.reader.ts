import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { AppError, ValidationError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { assertStorable, unstorableReason } from '../../common/validation/safe-json.js';
import { UPLOAD_LIMITS } from './knowledge-files.js';

export interface UploadedFile {
  filename: string;
  mediaType: string;
  bytes: Buffer;
}

export interface Upload {
  files: UploadedFile[];
  message?: string;
}

/** The wire name of one uploaded file in `details[].field`. */
export const fileField = (filename: string) => `files[${JSON.stringify(filename)}]`;

/**
 * Reads the parts of a knowledge upload into memory within UPLOAD_LIMITS: `files` (file parts) and an optional
 * `message`. Anything else, and any limit passed, is 422 naming the part; a body that is not multipart is 415.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw new AppError(415, ErrorCode.UnsupportedMediaType, 'Send the files as multipart/form-data');
  const files: UploadedFile[] = [];
  let message: string | undefined;
  let total = 0;
  const parts = request.parts({
    limits: {
      fileSize: UPLOAD_LIMITS.fileBytes,
      files: UPLOAD_LIMITS.files,
      fields: 1,
      parts: UPLOAD_LIMITS.files + 1,
      fieldNameSize: 100,
      fieldSize: UPLOAD_LIMITS.messageChars * 4,
      headerPairs: 20,
    },
  });
  try {
    for await (const part of parts) {
      await readPart(part);
    }
  } catch (error) {
    throw asUploadError(error);
  }
  if (!files.length) throw ValidationError.field('files', 'files must hold at least one file part');
  return { files, message };

  async function readPart(part: Multipart): Promise<void> {
    if (part.type === 'field') {
      if (part.fieldname !== 'message') throw ValidationError.field(part.fieldname, `${part.fieldname} is not a field of this upload`);
      const value = String(part.value);
      if (part.valueTruncated || value.length > UPLOAD_LIMITS.messageChars) {
        throw ValidationError.field('message', `message must be at most ${UPLOAD_LIMITS.messageChars} characters`);
      }
      assertStorable(value, 'message');
      message = value;
      return;
    }
    const filename = part.filename ?? '';
    if (part.fieldname !== 'files') {
      await part.toBuffer().catch(() => undefined);
      throw ValidationError.field(part.fieldname, `${part.fieldname} is not a field of this upload: send files as "files"`);
    }
    const field = fileField(filename);
    const printable = [...filename].every((c) => c.charCodeAt(0) >= 0x20) && !unstorableReason(filename);
    if (!filename.trim() || filename.length > UPLOAD_LIMITS.fileNameChars || !printable) {
      throw ValidationError.field(field, `a file needs a name of 1 to ${UPLOAD_LIMITS.fileNameChars} printable characters`);
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw ValidationError.field(field, `${filename} is larger than ${UPLOAD_LIMITS.fileBytes} bytes`);
      }
      throw error;
    }
    total += bytes.length;
    if (total > UPLOAD_LIMITS.totalBytes) {
      throw ValidationError.field('files', `the files add up to more than ${UPLOAD_LIMITS.totalBytes} bytes`);
    }
    files.push({ filename, mediaType: part.mimetype ?? '', bytes });
  }
}

function asUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code ?? '';
  switch (code) {
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return ValidationError.field('files', `an upload holds at most ${UPLOAD_LIMITS.files} files`);
    case 'FST_FIELDS_LIMIT':
      return ValidationError.field('message', 'an upload holds one message field at most');
    case 'FST_PROTO_VIOLATION':
      return ValidationError.field('body', 'a part is named after an Object.prototype property');
    default:
      // busboy's own complaints (a missing boundary, a truncated body) are about the request's form
      if (error instanceof Error && /multipart|boundary|unexpected end/i.test(error.message)) {
        return ValidationError.field('body', `the multipart body is malformed: ${error.message.slice(0, 200)}`);
      }
      return error;
  }
}
