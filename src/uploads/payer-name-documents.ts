import type { APIPromise } from '../core/api-promise.js';
import { type FieldIssue, RequestValidationError } from '../core/error.js';
import { isRecord } from '../core/values.js';
import type { RequestOptions } from '../internal/request-options.js';
import { type PaymentsClientLike, payoutPort } from '../payouts/port.js';
import type {
  PayerName,
  PayerNameCreateParams,
  PayerNameDocumentInput,
} from '../resources/payer-name-types.js';
import { PayerNameSchema } from '../resources/payer-name-types.js';
import { encodeMultipart, preparePart, type UploadInput, type UploadPart } from '../resources/uploads.js';
import { DOCUMENT_POLICY, PayerNameCreateSchema } from '../rules/payer-name.js';
import { fieldIssues, parseRequest } from '../rules/schema.js';

/**
 * POST /payer-names with documents: submits a payer name for review (201, status `pending_review`; in sandbox
 * it is `active` at once), the files checked and sent as a streamed `multipart/form-data`, once and never
 * retried. `metadata` cannot ride along (set it afterwards with `payerNames.update`). Everything is checked
 * before anything is sent. With no documents it sends JSON, as `payerNames.create` does.
 *
 * ```ts
 * import { createPayerNameWithDocuments } from 'payments-service-sdk/uploads';
 * const name = await createPayerNameWithDocuments(client, { ...fields, documents: ['./cac.pdf'] });
 * ```
 */
export function createPayerNameWithDocuments(
  client: PaymentsClientLike,
  body: PayerNameCreateParams,
  options?: RequestOptions,
): APIPromise<PayerName> {
  // The port the client's payouts namespace provides carries its pipeline: one check that `client` is a client.
  const { api } = payoutPort(client, 'createPayerNameWithDocuments');
  return api.call(async () => {
    const { documents, ...fields } = isRecord(body) ? body : ({} as PayerNameCreateParams);
    const input = isRecord(body) ? fields : body;
    const call = { method: 'POST', path: '/payer-names', schema: PayerNameSchema, options } as const;
    if (documents === undefined || (Array.isArray(documents) && documents.length === 0)) {
      return { ...call, body: parseRequest(PayerNameCreateSchema, input) };
    }
    const issues = fieldIssues(PayerNameCreateSchema, input);
    if (fields.metadata !== undefined) {
      issues.push({
        path: ['metadata'],
        message:
          'cannot be sent with documents (multipart); create first, then set it with payerNames.update',
      });
    }
    return { ...call, stream: await multipartBody(input, documents, issues) };
  }, 'payerNames.create');
}

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
async function multipartBody(input: unknown, documents: unknown, issues: FieldIssue[]) {
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
