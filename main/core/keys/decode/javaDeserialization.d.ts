// java-deserialization ships no types. It parses (never runs) a Java serialization stream
// into plain objects: fields as properties, the class description under a hidden `class`.
declare module 'java-deserialization' {
  const javaDeserialization: { parse(buf: Buffer): unknown[] };
  export default javaDeserialization;
}
