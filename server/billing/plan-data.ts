// Plans offered to organizations. Prices in cents per seat per month; included credit per seat per paid invoice.
export const BUILTIN_PLANS = [
  {
    id: 'free', name: 'Free', description: 'Pay as you go with prepaid credits. Up to 3 members.',
    pricePerSeatCents: 0, includedCreditMicrosPerSeat: 0n, maxMembers: 3, seatLimited: false, sortOrder: 0,
    features: ['All models at list price', 'Up to 3 members', 'Usage dashboard'],
  },
  {
    id: 'teams', name: 'Teams', description: 'For teams: per-seat pricing with monthly included credit.',
    pricePerSeatCents: 2000, includedCreditMicrosPerSeat: 5_000_000n, maxMembers: null, seatLimited: true, sortOrder: 1,
    features: ['$5 of included credit per seat each month', 'Members up to the seats you pay for', 'Roles and per-member usage', 'Priority support'],
  },
] as const;
