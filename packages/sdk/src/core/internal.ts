/** Methods resources call on the client that are not part of its public API. */
export const adoptApiKey: unique symbol = Symbol('adoptApiKey');
export const fetchFunction: unique symbol = Symbol('fetchFunction');
export const pause: unique symbol = Symbol('pause');
/** The body of a route that takes a streamed file (`streamBody`): passed in the call's options. */
export const streamedBody: unique symbol = Symbol('streamedBody');
/** Told the headers of a streamed answer (`POST /bulk/jobs/stream` names its job in one). */
export const answerHeaders: unique symbol = Symbol('answerHeaders');
