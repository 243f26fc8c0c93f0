/** Methods resources call on the client that are not part of its public API. */
export const adoptApiKey: unique symbol = Symbol('adoptApiKey');
export const fetchFunction: unique symbol = Symbol('fetchFunction');
export const pause: unique symbol = Symbol('pause');
