/**
 * `payments-service-sdk/uploads`: requests that send files as a streamed `multipart/form-data`, which read
 * each file lazily while the body is sent. An entry of its own so that an app which never uploads never
 * bundles the multipart encoder (issue 41).
 */
export type { UploadFile, UploadInput } from '../resources/uploads.js';
export { createPayerNameWithDocuments } from './payer-name-documents.js';
