import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { env } from '@/config/env';

interface Section {
  title: string;
  body: React.ReactNode;
}

function sections(email: string): Section[] {
  const contact = <Anchor href={`mailto:${email}`}>{email}</Anchor>;
  return [
    {
      title: 'Introduction',
      body: (
        <Text>
          QR Shirts for Charity ("we", "us") sells shirts that carry a QR code and raises money for charities when
          people scan them. This policy explains what we collect when you use our website, why, and the choices you
          have.
        </Text>
      ),
    },
    {
      title: 'Information We Collect',
      body: (
        <List>
          <List.Item>Account details: your name, email address and, if you add one, a profile photo.</List.Item>
          <List.Item>Waitlist sign-ups: your name, email, the shirt, the size and the charity you chose.</List.Item>
          <List.Item>Fundraisers and donations: which shirt supports which charity, and the amounts donated.</List.Item>
          <List.Item>
            Scan counts: how often each shirt's QR code was scanned, without identifying who scanned it.
          </List.Item>
          <List.Item>Usage data: pages viewed and buttons used, to understand what works.</List.Item>
        </List>
      ),
    },
    {
      title: 'How We Use Your Information',
      body: (
        <Text>
          To run your account, notify you when a shirt you are waiting for becomes available, show shirt owners the
          impact of their shirts, pass donations on to charities, keep the service secure, and improve it.
        </Text>
      ),
    },
    {
      title: 'How We Share Information',
      body: (
        <Text>
          We do not sell your personal information. Donations are handled by a third-party donation processor, and
          sign-in by an authentication provider; each receives only what it needs for that task. Charities receive
          donation totals, not your contact details. We disclose information when the law requires it.
        </Text>
      ),
    },
    {
      title: 'Data Security',
      body: (
        <Text>
          Connections are encrypted, passwords are never stored in readable form, and access to personal data is limited
          to the people who need it. No system is perfectly secure, so please use a strong, unique password.
        </Text>
      ),
    },
    {
      title: 'Data Retention',
      body: (
        <Text>
          Fundraising and donation records are kept for 7 years, as accounting and charity rules require. Server logs
          are kept for 90 days. Account and waitlist data are kept until you ask us to delete them.
        </Text>
      ),
    },
    {
      title: 'Your Rights',
      body: (
        <Text>
          You may ask to see, correct, export or delete your personal information, and object to its use. Write to{' '}
          {contact}; we answer privacy inquiries within 30 days.
        </Text>
      ),
    },
    {
      title: 'Cookies and Local Storage',
      body: (
        <Text>
          We use your browser's storage to keep you signed in and to cache the shirt and charity lists so pages load
          faster. We do not use advertising cookies.
        </Text>
      ),
    },
    {
      title: "Children's Privacy",
      body: (
        <Text>
          Our service is not meant for children under 13, and we do not knowingly collect their information. If you
          believe a child has given us personal data, contact us and we will delete it.
        </Text>
      ),
    },
    {
      title: 'International Data Transfers',
      body: (
        <Text>
          Our providers may process data in other countries. Where they do, we rely on safeguards such as standard
          contractual clauses to protect it.
        </Text>
      ),
    },
    {
      title: 'Third-Party Links',
      body: (
        <Text>
          Charity websites and the donation widget are run by others, under their own privacy policies. We are not
          responsible for how they handle your information.
        </Text>
      ),
    },
    {
      title: 'Changes to This Policy',
      body: (
        <Text>
          When this policy changes, we update the date above and, for significant changes, tell account holders by email
          before the change takes effect.
        </Text>
      ),
    },
    {
      title: 'Contact Us',
      body: <Text>Questions about this policy or your data? Email us at {contact}.</Text>,
    },
    {
      title: 'State-Specific Privacy Rights',
      body: (
        <Text>
          Residents of some US states, such as California, Virginia and Colorado, have additional rights, including to
          know what we collect, to delete it and to opt out of its sale (we do not sell it). To use them, email{' '}
          {contact}.
        </Text>
      ),
    },
  ];
}

export function PrivacyRoute() {
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  return (
    <Container size="md" py="xl">
      <title>Privacy Policy · QR Shirts for Charity</title>
      <Stack gap="lg">
        <div>
          <Title order={1}>Privacy Policy</Title>
          <Text c="dimmed">Last updated: {today}</Text>
        </div>
        {sections(env.VITE_CONTACT_EMAIL).map((section, index) => (
          <section key={section.title} aria-labelledby={`privacy-${index + 1}`} data-testid="privacy-section">
            <Title order={2} size="h3" id={`privacy-${index + 1}`} mb="xs">
              {index + 1}. {section.title}
            </Title>
            {section.body}
          </section>
        ))}
      </Stack>
    </Container>
  );
}
