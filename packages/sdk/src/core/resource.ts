import type { Scrub } from '../client.js';

/** Resources are thin: they name the route and shape the answer, the client does the HTTP. */
export abstract class APIResource {
  protected readonly client: Scrub;

  constructor(client: Scrub) {
    this.client = client;
  }
}
