import type { PaymentsClient } from '../client.js';

/** A namespace of endpoints; holds the client it sends through. */
export abstract class APIResource {
  protected readonly client: PaymentsClient;
  constructor(client: PaymentsClient) {
    this.client = client;
  }
}
