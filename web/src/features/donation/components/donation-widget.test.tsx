import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DonationWidget } from './donation-widget';

function widgetSays(data: unknown, origin = window.location.origin) {
  const frame = screen.getByTitle<HTMLIFrameElement>('Donation widget');
  act(() => {
    fireEvent(window, new MessageEvent('message', { data, origin, source: frame.contentWindow }));
  });
}

const frameHeight = () => screen.getByTitle<HTMLIFrameElement>('Donation widget').style.height;

describe('the donation widget frame', () => {
  it('takes the height its widget says, so nothing of the widget is cut off', () => {
    render(<DonationWidget fundraiserId="f-1" onDonation={() => {}} />);
    expect(frameHeight()).toBe('380px');
    widgetSays({ type: 'widget-height', height: 512.4 });
    expect(frameHeight()).toBe('513px');
    widgetSays({ type: 'widget-height', height: 300 });
    expect(frameHeight()).toBe('300px');
  });

  it('ignores a height from another origin or that is none, and bounds a runaway one', () => {
    render(<DonationWidget fundraiserId="f-1" onDonation={() => {}} />);
    widgetSays({ type: 'widget-height', height: 900 }, 'https://evil.example');
    widgetSays({ type: 'widget-height', height: 'tall' });
    widgetSays({ type: 'widget-height', height: -1 });
    expect(frameHeight()).toBe('380px');
    widgetSays({ type: 'widget-height', height: 1e9 });
    expect(frameHeight()).toBe('2000px');
  });
});
