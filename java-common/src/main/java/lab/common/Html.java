package lab.common;

/** HTML escaping exactly as PHP's htmlspecialchars(ENT_QUOTES | ENT_HTML401) does it. */
public final class Html {
    private Html() {
    }

    public static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length() + 16);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&': out.append("&amp;"); break;
                case '<': out.append("&lt;"); break;
                case '>': out.append("&gt;"); break;
                case '"': out.append("&quot;"); break;
                case '\'': out.append("&#039;"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }

    public static String reason(int status) {
        switch (status) {
            case 400: return "Bad Request";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            default: return "Service Unavailable";
        }
    }
}
