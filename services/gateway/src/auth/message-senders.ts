/** Ports for what reaches a person outside the app; an SMS or email provider's adapter goes here. */
export interface SmsSender {
  sendSms(message: { to: string; text: string }): Promise<void>;
}

export interface EmailSender {
  sendEmail(message: { to: string; subject: string; text: string }): Promise<void>;
}
