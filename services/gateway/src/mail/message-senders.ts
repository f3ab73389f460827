/**
 * Ports for what reaches a person outside the app. Both store the message in the durable outbox
 * and resolve once it is stored, not once it is delivered: the outbox's sender delivers it with
 * retries, so a mail server that is down never fails the request that caused the message.
 */
export interface SmsSender {
  sendSms(message: { to: string; text: string }): Promise<void>;
}

export interface EmailSender {
  /**
   * `onceKey`: the message goes at most once under this key. Asked again (a job run twice, after a
   * restart, by another gateway) it is not stored again. With `budget` too, a message not stored
   * yet is stored only when `budget` (counting it against the budgets it falls under) answers
   * true; one stored already costs nothing more.
   */
  sendEmail(message: EmailMessage, options?: { onceKey: string; budget?: () => Promise<boolean> }): Promise<void>;
}

/** A whole mail: both parts, as `renderMail` makes them. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}
