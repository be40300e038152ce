import { type FieldIssue, RequestValidationError } from '../core/error.js';
import { isRecord } from '../core/values.js';
import { DOCUMENT_POLICY, PayerNameCreateSchema } from '../rules/payer-name.js';
import { parseRequest } from '../rules/schema.js';
import type { PayerNameDocumentInput } from './payer-name-types.js';
import { encodeMultipart, preparePart, type UploadInput, type UploadPart } from './uploads.js';

/**
 * A payer name created with documents: the files checked and streamed as `multipart/form-data`. Loaded by
 * `payerNames.create` on the first call with documents, so a plain call never loads the multipart encoder
 * (issue 34).
 */

type DescribedDocument = UploadInput & { description?: unknown };

/** A document as given: `{ file, ... }`, or the file alone (a Blob, bytes or a stream has no `file` key). */
function described(item: PayerNameDocumentInput): DescribedDocument {
  return isRecord(item) && 'file' in item && !(Symbol.asyncIterator in item)
    ? (item as DescribedDocument)
    : { file: item as UploadInput['file'] };
}

/** Each document checked and made a lazy part, with its label; or the issues that refuse it. */
function prepareDocuments(documents: PayerNameDocumentInput[]) {
  return Promise.all(
    documents.map(async (item, i) => {
      const path = ['documents', String(i)];
      const input = described(item);
      const description = input.description;
      if (description !== undefined && typeof description !== 'string') {
        return { issues: [{ path: [...path, 'description'], message: 'must be a string' }] };
      }
      return { ...(await preparePart(input, path, DOCUMENT_POLICY)), description };
    }),
  );
}

/**
 * The multipart body of a create with `documents`, or a `RequestValidationError` naming every problem:
 * `issues` (those of the fields, found by the caller) and those of each document.
 */
export async function multipartBody(input: unknown, documents: unknown, issues: FieldIssue[]) {
  const prepared = Array.isArray(documents)
    ? await prepareDocuments(documents)
    : [{ issues: [{ path: ['documents'], message: 'must be an array of files' }] }];
  for (const document of prepared) issues.push(...(document.issues ?? []));
  if (issues.length) throw new RequestValidationError(issues);

  const form: [string, string | UploadPart][] = [];
  for (const [name, value] of Object.entries(parseRequest(PayerNameCreateSchema, input))) {
    if (typeof value === 'string') form.push([name, value]);
  }
  // Text fields go first, so a server parsing the stream can refuse them before the files arrive.
  // `documentDescriptions` labels files by position, so once any file has a label every file gets an entry:
  // an empty string for an unlabelled one keeps the labels after it on their own files. (The spec shows
  // unlabelled files with a null description; how it stores an empty label is not shown.)
  const files = prepared as { part: UploadPart; description?: string }[];
  if (files.some((file) => file.description !== undefined)) {
    for (const file of files) form.push(['documentDescriptions', file.description ?? '']);
  }
  for (const file of files) form.push(['documents', file.part]);
  return encodeMultipart(form);
}
