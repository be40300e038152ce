import type { PaymentsClient } from '../client.js';
import type { Pipeline } from '../internal/pipeline.js';

/** A namespace of endpoints: sends through the pipeline, and reaches other namespaces through the client. */
export abstract class APIResource {
  protected readonly client: PaymentsClient;
  protected readonly api: Pipeline;
  constructor(client: PaymentsClient, api: Pipeline) {
    this.client = client;
    this.api = api;
  }
}
