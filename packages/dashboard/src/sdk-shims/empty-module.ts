/**
 * Stands in for Node built-ins that @scrub/sdk imports on paths a browser never takes (upload from a
 * file path reads `node:fs`). Remove once the SDK has a browser entry without them.
 */
export default {};
export const createReadStream = undefined;
export const stat = undefined;
