// Work the customer does not wait for, run when the page has nothing else to do: requestIdleCallback where the
// browser has it (Chromium, Firefox), else the task after the next frame (WebKit). `timeoutMs` bounds the wait on a
// page that is never idle.
export function whenIdle(work: () => void, timeoutMs = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: timeoutMs });
  else requestAnimationFrame(() => setTimeout(work));
}
