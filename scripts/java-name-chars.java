// Prints the tables of src/schema/avro/java_name.rs: the UTF-16 code units Java's
// `Character.isLetter` and `Character.isDigit` accept, as ranges. Run by hand with the JDK whose
// Unicode version the tables should follow:
//
//   java scripts/java-name-chars.java > /tmp/tables.rs
public class JavaNameChars {
    interface Test {
        boolean accepts(char unit);
    }

    static void table(String name, String doc, Test test) {
        StringBuilder out = new StringBuilder();
        int count = 0;
        int start = -1;
        for (int unit = 0; unit <= 0x10000; unit++) {
            boolean in = unit <= 0xFFFF && test.accepts((char) unit);
            if (in && start < 0) {
                start = unit;
            } else if (!in && start >= 0) {
                out.append(count % 4 == 0 ? "\n    " : " ");
                out.append(String.format("(0x%04X, 0x%04X),", start, unit - 1));
                count++;
                start = -1;
            }
        }
        System.out.println("/// " + doc);
        System.out.println("#[rustfmt::skip]");
        System.out.print("const " + name + ": [(u16, u16); " + count + "] = [");
        System.out.println(out + "\n];");
    }

    public static void main(String[] args) {
        String version = System.getProperty("java.version");
        table("LETTERS", "`Character.isLetter` (Java " + version + "): general categories Lu, Ll, Lt, Lm, Lo.",
            Character::isLetter);
        System.out.println();
        table("DIGITS", "`Character.isDigit` (Java " + version + "): general category Nd.", Character::isDigit);
    }
}
