package android.net;

/** Stub of android.net.Uri. */
public abstract class Uri implements Comparable<Uri> {
    public static Uri parse(String uriString) { throw new RuntimeException("Stub!"); }
    public abstract String getScheme();
    public abstract String getHost();
    public abstract int getPort();
    public abstract String toString();
    public int compareTo(Uri other) { throw new RuntimeException("Stub!"); }
}
