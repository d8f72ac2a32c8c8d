// The header of the merchant's pages: who is signed in, and signing out.
import { html, render } from 'lit';
import { api, ApiError, currentSession } from './api.js';

async function signOut(): Promise<void> {
  try {
    await api('/demo/api/session', { method: 'DELETE' });
  } catch (error) {
    // Already signed out (401) is as good; anything else is worth saying.
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  location.assign('/signin');
}

/** Fills the header's session slot once the page knows its session. */
export async function showSession(): Promise<void> {
  const slot = document.getElementById('session');
  if (!slot) return;
  const { client_id } = await currentSession();
  render(
    html`<span class="muted">Signed in as <strong class="mono">${client_id}</strong></span>
      <button type="button" class="secondary small" @click=${signOut}>Sign out</button>`,
    slot,
  );
}
