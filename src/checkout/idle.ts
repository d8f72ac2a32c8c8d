// Work the customer does not wait for, run when the page has nothing else to do: requestIdleCallback where the
// browser has it (Chromium, Firefox; at most 2 s late on a page that is never idle), else the task after the next
// frame (WebKit).
export const whenIdle = (work: () => void): void =>
  void (typeof requestIdleCallback === 'function' ? requestIdleCallback(work, { timeout: 2000 }) : requestAnimationFrame(() => setTimeout(work)));
