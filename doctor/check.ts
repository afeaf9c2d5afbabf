/** One line of doctor's answer. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The exact change that makes a failed check pass. */
  fix?: string;
  /** Worth knowing, but not a reason to fail. */
  warn?: boolean;
  /** The error code `prepare` refuses with for the same problem, when there is one (`CHECK_NOT_FOUND`). */
  code?: string;
}
