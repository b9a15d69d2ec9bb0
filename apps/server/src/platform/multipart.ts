// Reading a multipart form (profile avatar now, speech uploads next): the fields, and the files
// allowed by name with their size limits. Every way a form can be malformed is a 400 with the
// standard body, never a 500.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, fieldError, formError } from './errors';
import type { MessageKey } from './i18n';

export interface FileRule {
  maxBytes: number;
  /** The message for a file over maxBytes; gets `{max}` in MB. */
  tooLarge: MessageKey;
}

export interface Form {
  fields: Record<string, string>;
  /** Files by field name; an empty file part is reported as the field's empty string. */
  files: Record<string, Buffer>;
  /** The names the files were sent with, by field name. */
  fileNames: Record<string, string>;
}

export async function readForm(request: FastifyRequest, rules: Record<string, FileRule>, maxFields = 20): Promise<Form> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: Record<string, Buffer> = Object.create(null) as Record<string, Buffer>;
  const fileNames: Record<string, string> = Object.create(null) as Record<string, string>;
  const maxFileBytes = Math.max(0, ...Object.values(rules).map((rule) => rule.maxBytes));
  let current: string | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes, files: Object.keys(rules).length, fields: maxFields } })) {
      current = part.fieldname;
      if (part.type === 'file') {
        const file = part as MultipartFile;
        const rule = rules[file.fieldname];
        if (!rule) {
          await file.toBuffer().catch(() => undefined);
          throw fieldError(file.fieldname, 'unknownField', { field: file.fieldname }, 'unknown_field');
        }
        const content = await file.toBuffer();
        if (content.length > rule.maxBytes) throw fieldError(file.fieldname, rule.tooLarge, { max: rule.maxBytes / 1024 / 1024 }, 'file_too_large');
        if (content.length > 0) {
          files[file.fieldname] = content;
          fileNames[file.fieldname] = file.filename;
        }
        else fields[file.fieldname] = '';
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    throw asFormError(error, current, rules);
  }
  return { fields, files, fileNames };
}

function asFormError(error: unknown, field: string | undefined, rules: Record<string, FileRule>): ApiError {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  const rule = field ? rules[field] : undefined;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return field && rule
        ? fieldError(field, rule.tooLarge, { max: rule.maxBytes / 1024 / 1024 }, 'file_too_large')
        : formError('bodyTooLarge', 'too_large');
    case 'FST_FILES_LIMIT':
      return formError('tooManyFiles', 'too_many_files');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return formError('bodyTooLarge', 'too_large');
    case 'FST_PROTO_VIOLATION':
      return formError('unknownField', 'unknown_field', { field: '__proto__' });
    default:
      // Busboy's own errors (no boundary, a truncated form, a malformed part header...).
      return formError('invalidMultipart', 'parse_error');
  }
}
