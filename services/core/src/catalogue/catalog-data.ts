/**
 * The catalogue a fresh install starts with. Ids are slugs and never change: seeding is keyed on
 * them, so editing an entry here does not alter a store that was already seeded.
 * Images are SVGs under services/gateway/public, drawn from `artwork` by
 * scripts/generate-seed-images.ts (re-run it after changing an entry).
 */

export type ShirtView = 'front' | 'back' | 'detail' | 'folded';

export interface SeedShirtImage {
  view: ShirtView;
  alt: string;
  isMain: boolean;
}

export interface SeedShirt {
  shirtId: string;
  name: string;
  description: string;
  priceCents: number;
  category?: string;
  sizes: string[];
  tags?: string[];
  artwork: {
    fabric: string;
    ink: string;
    /** Printed under the QR code on the front. */
    caption: string;
    /** Printed on the back: what the stranger reads as you walk away. */
    punchline: string;
  };
  images: SeedShirtImage[];
}

export interface SeedCharity {
  charityId: string;
  name: string;
  mission: string;
  website_url: string;
  artwork: { monogram: string; colour: string };
}

/** Public URL of a shirt's nth image (1-based), served by the gateway from its public folder. */
export const shirtImageUrl = (shirtId: string, n: number): string => `/images/shirts/${shirtId}-${n}.svg`;
export const charityLogoUrl = (charityId: string): string => `/images/charities/${charityId}.svg`;

const ALL_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

export const seedShirts: SeedShirt[] = [
  {
    shirtId: 'scan-me-maybe',
    name: 'Scan Me Maybe',
    description:
      "Hey, you just met me, and this is crazy, but there's a code on my chest, so scan me maybe. " +
      'Strangers get a catchy plot twist; a charity gets the chorus.',
    priceCents: 2999,
    category: 'Classics',
    sizes: ALL_SIZES,
    tags: ['bestseller', 'music', 'pop culture', 'conversation starter'],
    artwork: {
      fabric: '#e63946',
      ink: '#1d1d1f',
      caption: 'Hey, I just met you…',
      punchline: '…and this was crazy generous',
    },
    images: [
      { view: 'front', alt: 'Scan Me Maybe shirt in red, front, with the QR code on the chest', isMain: true },
      { view: 'back', alt: 'Scan Me Maybe shirt, back print', isMain: false },
      { view: 'detail', alt: 'Close-up of the printed QR code on the Scan Me Maybe shirt', isMain: false },
      { view: 'folded', alt: 'Scan Me Maybe shirt folded', isMain: false },
    ],
  },
  {
    shirtId: 'not-a-menu',
    name: 'This Is Not a Menu',
    description:
      'People in cafés keep trying to order off your chest. Let them: the only dish on offer is ' +
      'a side of doing good, and it is always in season.',
    priceCents: 2799,
    category: 'Food & Drink',
    sizes: ALL_SIZES,
    tags: ['food', 'restaurants', 'prank'],
    artwork: {
      fabric: '#f4d35e',
      ink: '#3d2c1e',
      caption: 'NOT A MENU',
      punchline: 'You ordered kindness. Good choice.',
    },
    images: [
      { view: 'detail', alt: 'Close-up of the QR code under the words NOT A MENU', isMain: false },
      { view: 'front', alt: 'This Is Not a Menu shirt in mustard yellow, front', isMain: true },
      { view: 'back', alt: 'This Is Not a Menu shirt, back print', isMain: false },
    ],
  },
  {
    shirtId: 'free-wifi',
    name: 'Free Wi-Fi (Sort Of)',
    description:
      'A QR code under the words FREE WIFI is the most irresistible thing in any airport. ' +
      'The password turns out to be generosity. Nobody has ever been mad about it. Mostly.',
    priceCents: 2499,
    category: 'Tech',
    sizes: ['S', 'M', 'L', 'XL'],
    tags: ['tech', 'travel'],
    artwork: { fabric: '#1d3557', ink: '#a8dadc', caption: 'FREE WIFI →', punchline: 'The password was kindness' },
    images: [
      { view: 'front', alt: 'Free Wi-Fi shirt in navy, front, with a QR code under FREE WIFI', isMain: true },
      { view: 'back', alt: 'Free Wi-Fi shirt, back print', isMain: false },
      { view: 'detail', alt: 'Close-up of the Free Wi-Fi QR code', isMain: false },
      { view: 'folded', alt: 'Free Wi-Fi shirt folded', isMain: false },
    ],
  },
  {
    shirtId: 'plot-twist',
    name: 'Plot Twist',
    description:
      'Every good story needs a twist. Yours: the stranger who scanned your shirt expecting a ' +
      'meme just funded something real. Cue dramatic music.',
    priceCents: 3199,
    sizes: ALL_SIZES,
    tags: ['storytelling', 'drama', 'bestseller'],
    artwork: {
      fabric: '#2a2a2a',
      ink: '#f1fa8c',
      caption: 'Scan for a plot twist',
      punchline: 'Twist: you just helped someone',
    },
    images: [
      { view: 'front', alt: 'Plot Twist shirt in charcoal, front', isMain: true },
      { view: 'back', alt: 'Plot Twist shirt, back print', isMain: false },
      { view: 'folded', alt: 'Plot Twist shirt folded', isMain: false },
    ],
  },
  {
    shirtId: 'do-not-scan',
    name: 'Do Not Scan This Shirt',
    description:
      'Reverse psychology, printed on organic cotton. It has never once worked as instructed, ' +
      'which is exactly the point.',
    priceCents: 2599,
    category: 'Classics',
    sizes: ['S', 'M', 'L'],
    artwork: { fabric: '#ffffff', ink: '#d00000', caption: 'DO NOT SCAN', punchline: 'You had one job. Thank you.' },
    images: [
      { view: 'front', alt: 'Do Not Scan This Shirt in white, front, with a red warning and QR code', isMain: true },
      { view: 'detail', alt: 'Close-up of the red QR code below DO NOT SCAN', isMain: false },
      { view: 'back', alt: 'Do Not Scan This Shirt, back print', isMain: false },
    ],
  },
  {
    shirtId: 'grandmas-secret-recipe',
    name: "Grandma's Secret Recipe",
    description:
      "Grandma swore she'd take it to the grave, but she also wanted the grandkids to do some " +
      'good. The secret ingredient is printed right there in the code.',
    priceCents: 3499,
    category: 'Food & Drink',
    sizes: ['S', 'M', 'L', 'XL'],
    tags: ['family', 'food', 'gift'],
    artwork: {
      fabric: '#f7ede2',
      ink: '#84a59d',
      caption: "Grandma's secret recipe",
      punchline: 'Secret ingredient: generosity',
    },
    images: [
      { view: 'folded', alt: "Grandma's Secret Recipe shirt folded", isMain: false },
      { view: 'back', alt: "Grandma's Secret Recipe shirt, back print", isMain: false },
      { view: 'front', alt: "Grandma's Secret Recipe shirt in cream, front", isMain: true },
      { view: 'detail', alt: "Close-up of the QR code on Grandma's Secret Recipe", isMain: false },
    ],
  },
  {
    shirtId: 'meeting-notes',
    name: 'This Meeting Could Have Been a Donation',
    description:
      'For the colleague who has survived one stand-up too many. The agenda is a QR code, the ' +
      'action item is a good cause, and nobody has to share their screen.',
    priceCents: 2899,
    category: 'Office',
    sizes: ALL_SIZES,
    tags: ['office', 'work', 'meetings', 'coffee', 'gift'],
    artwork: {
      fabric: '#6c757d',
      ink: '#ffffff',
      caption: 'Agenda inside',
      punchline: 'Action item: change the world',
    },
    images: [
      { view: 'front', alt: 'Meeting shirt in slate grey, front', isMain: true },
      { view: 'back', alt: 'Meeting shirt, back print', isMain: false },
      { view: 'detail', alt: 'Close-up of the agenda QR code', isMain: false },
    ],
  },
  {
    shirtId: 'not-a-rickroll',
    name: 'Definitely Not a Rickroll',
    description:
      'After years of the internet, nobody trusts a QR code. This one promises. It is never ' +
      'gonna give you up, but it will let you give.',
    priceCents: 3999,
    category: 'Internet Culture',
    sizes: ALL_SIZES,
    tags: ['internet', 'music', 'prank'],
    artwork: {
      fabric: '#7b2cbf',
      ink: '#ffd60a',
      caption: '100% not a rickroll',
      punchline: 'Never gonna give up on giving',
    },
    images: [
      { view: 'front', alt: 'Definitely Not a Rickroll shirt in purple, front', isMain: true },
      { view: 'detail', alt: 'Close-up of the trustworthy-looking QR code', isMain: false },
      { view: 'back', alt: 'Definitely Not a Rickroll shirt, back print', isMain: false },
      { view: 'folded', alt: 'Definitely Not a Rickroll shirt folded', isMain: false },
    ],
  },
  {
    shirtId: 'tiny-scanner',
    name: 'Tiny Human, Big Impact',
    description:
      'For small people who already attract a lot of attention. Every adult who coos at them ' +
      'now gets a chance to do something useful instead.',
    priceCents: 2499,
    category: 'Kids',
    sizes: ['2T', '3T', '4T', '5T'],
    tags: ['kids'],
    artwork: {
      fabric: '#90be6d',
      ink: '#14213d',
      caption: 'Scan the small human',
      punchline: 'Small shirt. Big heart.',
    },
    images: [
      { view: 'front', alt: 'Tiny Human shirt in leaf green, front', isMain: true },
      { view: 'folded', alt: 'Tiny Human shirt folded', isMain: false },
      { view: 'detail', alt: 'Close-up of the QR code on the Tiny Human shirt', isMain: false },
    ],
  },
  {
    shirtId: 'ask-me-about-my-qr',
    name: 'Ask Me About My QR Code',
    description:
      'For introverts who want to be asked about something without having to explain it. ' +
      'The code does the small talk; you just nod wisely.',
    priceCents: 3299,
    sizes: ['XS', 'S', 'M', 'L', 'XL'],
    tags: ['introvert', 'conversation starter', 'humor'],
    artwork: { fabric: '#0081a7', ink: '#fdfcdc', caption: 'Ask me about my QR', punchline: 'Actually, just scan it' },
    images: [
      { view: 'front', alt: 'Ask Me About My QR Code shirt in teal, front', isMain: true },
      { view: 'back', alt: 'Ask Me About My QR Code shirt, back print', isMain: false },
      { view: 'detail', alt: 'Close-up of the QR code under Ask me about my QR', isMain: false },
    ],
  },
];

export const seedCharities: SeedCharity[] = [
  {
    charityId: 'givedirectly',
    name: 'GiveDirectly',
    mission:
      'GiveDirectly sends cash straight to people living in extreme poverty, trusting them to decide what they need most.',
    website_url: 'https://www.givedirectly.org',
    artwork: { monogram: 'GD', colour: '#1a7f5a' },
  },
  {
    charityId: 'against-malaria-foundation',
    name: 'Against Malaria Foundation',
    mission:
      'The Against Malaria Foundation funds long-lasting insecticidal nets and tracks their distribution to protect families from malaria.',
    website_url: 'https://www.againstmalaria.com',
    artwork: { monogram: 'AMF', colour: '#2b59c3' },
  },
  {
    charityId: 'charity-water',
    name: 'charity: water',
    mission: 'charity: water brings clean and safe drinking water to people in developing countries.',
    website_url: 'https://www.charitywater.org',
    artwork: { monogram: 'cw', colour: '#ffc907' },
  },
  {
    charityId: 'doctors-without-borders',
    name: 'Doctors Without Borders',
    mission:
      'Doctors Without Borders (MSF) provides independent, impartial medical care to people affected by conflict, epidemics and disasters.',
    website_url: 'https://www.doctorswithoutborders.org',
    artwork: { monogram: 'MSF', colour: '#ee0000' },
  },
  {
    charityId: 'wikimedia-foundation',
    name: 'Wikimedia Foundation',
    mission:
      'The Wikimedia Foundation hosts Wikipedia and its sister projects, keeping free knowledge available to everyone, everywhere.',
    website_url: 'https://wikimediafoundation.org',
    artwork: { monogram: 'W', colour: '#333333' },
  },
  {
    charityId: 'the-ocean-cleanup',
    name: 'The Ocean Cleanup',
    mission:
      'The Ocean Cleanup develops technology to remove plastic from the oceans and to stop it at its source in rivers.',
    website_url: 'https://theoceancleanup.com',
    artwork: { monogram: 'OC', colour: '#0b4f6c' },
  },
];
