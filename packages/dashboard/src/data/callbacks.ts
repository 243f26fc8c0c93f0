/**
 * What a screen does after a data module's mutation: tell the user, move on. The module's own
 * cache updates run first, so the screen already sees fresh data when its `onSuccess` runs.
 */
export interface Callbacks<Output> {
  onSuccess?(output: Output): void | Promise<void>;
  onError?(error: Error): void;
}
