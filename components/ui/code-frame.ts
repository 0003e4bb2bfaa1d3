/** The dark frame every snippet sits in, in the light and the dark scheme alike. */
export const codeFrameClasses = 'overflow-hidden rounded-2xl border border-zinc-800 bg-zinc-950 shadow-xl shadow-zinc-950/10';
