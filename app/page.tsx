export default function Home() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Quarry</h1>
      <p>Document extraction and knowledge base service.</p>
      <ul>
        <li>
          API: <code>/v1</code> with <code>Authorization: Bearer &lt;API key&gt;</code>
        </li>
        <li>
          API schema: <a href="/v1/openapi.json">/v1/openapi.json</a>
        </li>
        <li>
          Health: <a href="/health">/health</a>
        </li>
      </ul>
    </main>
  );
}
