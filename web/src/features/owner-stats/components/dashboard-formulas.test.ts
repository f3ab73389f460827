import { describe, expect, it } from 'vitest';
import { averagePerShirt, conversionRate } from './dashboard-formulas';

describe('the dashboard formulas', () => {
  it('averages the impact per shirt, rounded, and 0 without shirts', () => {
    expect(averagePerShirt(100, 3)).toBe(33);
    expect(averagePerShirt(101, 2)).toBe(51);
    expect(averagePerShirt(250, 0)).toBe(0);
  });

  it('turns donations over scans into a rounded percent, and 0 without scans', () => {
    expect(conversionRate(1, 3)).toBe(33);
    expect(conversionRate(2, 3)).toBe(67);
    expect(conversionRate(5, 0)).toBe(0);
  });
});
