/** Methods resources call on the client that are not part of its public API. */
export const adoptApiKey: unique symbol = Symbol('adoptApiKey');
