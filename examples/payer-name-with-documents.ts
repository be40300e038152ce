/**
 * Submits a payer name with supporting documents (streamed multipart), then sets its metadata and, once it has
 * cleared review, makes it the default for payouts.
 * Run with PAYMENTS_BASE_URL and PAYMENTS_API_KEY set; it writes, so only against the mock or with --live:
 *   node node_modules/payments-service-sdk/examples/payer-name-with-documents.js [./certificate.pdf]
 */
import { PaymentsClient } from 'payments-service-sdk';
import { createPayerNameWithDocuments } from 'payments-service-sdk/uploads';
import { runIfMain, writesAllowed } from './run.js';

/** A minimal valid one-page PDF, so the example runs without a file of your own. */
export const SAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export async function main(
  client = new PaymentsClient(),
  log = console.log,
  file: string | Buffer = SAMPLE_PDF,
) {
  const created = await createPayerNameWithDocuments(client, {
    entity_type: 'business',
    display_name: `Acme Payouts ${Date.now().toString(36)}`,
    country: 'NG',
    address_line: '1 Marina Road',
    city: 'Lagos',
    state_province: 'Lagos',
    registration_number: 'RC123456',
    documents: [{ file, fileName: 'certificate.pdf', description: 'Certificate of incorporation' }],
  });
  log(`payer name ${created.name}: ${created.status}, ${created.documents.length} document(s)`);
  // Metadata cannot ride with documents; it is set afterwards.
  const updated = await client.payerNames.update(created.id, { metadata: { crmId: 'c-42' } });
  log(`metadata set: ${JSON.stringify(updated.metadata)}`);
  return updated;
}

runIfMain(import.meta.url, async () => {
  if (!writesAllowed()) {
    console.log(
      'This example writes: run it against the mock (npx payments-service-sdk mock), or pass --live.',
    );
    return;
  }
  const file = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  await main(new PaymentsClient(), console.log, file ?? SAMPLE_PDF);
});
