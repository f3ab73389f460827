/** Spec section 9: total impact over shirts owned, rounded; 0 without shirts. */
export function averagePerShirt(totalImpact: number, shirtsOwned: number): number {
  return shirtsOwned > 0 ? Math.round(totalImpact / shirtsOwned) : 0;
}

/** Spec section 9: donations over scans as a rounded percent; 0 without scans. */
export function conversionRate(donations: number, scans: number): number {
  return scans > 0 ? Math.round((donations / scans) * 100) : 0;
}
