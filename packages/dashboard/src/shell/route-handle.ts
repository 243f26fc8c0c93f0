/** What a route tells the shell about itself (react-router's `handle`). */
export interface RouteHandle {
  /** Sign-up and ConfirmEmail: no header links, sidebar or footer (seed 1). */
  bare?: boolean;
  /** Welcome hides the whole footer. */
  hideFooter?: boolean;
  /** Login, SignUp and Plans hide the footer's links. */
  hideFooterLinks?: boolean;
}
