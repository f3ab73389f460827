import { z } from 'zod';

/**
 * Build-time configuration (Vite's `VITE_*` variables), checked once at start-up so a typo fails
 * loudly instead of rendering a broken widget or a mailto: without an address.
 */
const envSchema = z.object({
  /** Where the API gateway answers; empty means the same origin that served the page. */
  VITE_API_URL: z.string().trim().default(''),
  /**
   * The donation processor's embeddable widget. The built-in demo charges nothing; a real
   * processor's widget URL replaces it. Messages are accepted only from this URL's origin.
   */
  VITE_DONATION_WIDGET_URL: z.string().trim().min(1).default('/widget/demo-donation.html'),
  VITE_CONTACT_EMAIL: z.email().default('hello@qrshirts.example'),
  VITE_SOCIAL_URL: z.url().default('https://www.instagram.com/'),
});

type Env = z.infer<typeof envSchema>;

function parseEnv(source: Record<string, unknown>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid web configuration:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

export const env = parseEnv(import.meta.env);
