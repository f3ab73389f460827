/**
 * The link every waitlist mail carries, under its small print: it takes the address off the list
 * and erases the name and email given. The token travels in the fragment, as the other links' do.
 */
export const removalLink = (publicBaseUrl: string, token: string) => ({
  label: 'Remove me from the waitlist and erase my name and email',
  url: `${publicBaseUrl}/waitlist/remove#token=${token}`,
});
