/** One line of doctor's answer. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The exact change that makes a failed check pass. */
  fix?: string;
  /** Worth knowing, but not a reason to fail. */
  warn?: boolean;
}
