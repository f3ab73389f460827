import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render';
import { GoalProgress } from './goal-progress';

describe('the goal bar', () => {
  it('fills with the share of the goal raised, and stops full when the goal is passed', () => {
    renderRoute(<GoalProgress raised={1500} goal={1000} label="Towards the goal" />);
    expect(screen.getByRole('progressbar', { name: 'Towards the goal' }).getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText('$1,500.00 raised of $1,000.00 goal')).toBeTruthy();
    expect(screen.getByText('100%')).toBeTruthy();
  });

  it('shows nothing without a goal', () => {
    renderRoute(<GoalProgress raised={10} goal={null} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
