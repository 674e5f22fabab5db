import { describeError } from '../api';

/**
 * A failed call as people need it: the service's message, then every `details` entry (which field, what is wrong:
 * a 422 names each bad file or field), and the request id to quote when asking for help.
 */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const { message, details, requestId } = describeError(error);
  return (
    <div class="error" role="alert" data-testid="error">
      <p>{message}</p>
      {details.length > 0 && (
        <ul data-testid="error-details">
          {details.map((d, i) => (
            <li key={i}>
              {d.field && <code>{d.field}</code>} {d.message}
            </li>
          ))}
        </ul>
      )}
      {requestId && <p class="small">request {requestId}</p>}
    </div>
  );
}
