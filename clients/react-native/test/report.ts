// clients/react-native/scripts/conformance-report: one JSON object on stdout with every shared case's result.
import { runCase, sharedCases } from './vectors';

async function main(): Promise<void> {
  const cases = [];
  for (const c of sharedCases()) {
    const [result, detail] = await runCase(c);
    cases.push({ file: c.file, section: c.section, id: c.id, result, detail });
  }
  process.stdout.write(`${JSON.stringify({ shell: 'typescript', cases })}\n`);
}

void main();
