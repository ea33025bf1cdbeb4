/// The talk the synthetic presenter reads in the caption tests, in English and in German: long
/// enough for three 30 s takes (`VRENDER_WIDE=1`).
public enum PresenterScripts {
    public static let english = """
        Good morning, and welcome to this short talk about recording video on Linux.
        Today we will look at three things: how a camera delivers frames, how sound keeps in step with them, \
        and how a finished video is put together from many takes.
        First, the camera. A webcam sends pictures at a steady rate, thirty times a second, and each one carries \
        a time stamp from the kernel's clock.
        Second, the sound. A microphone has a crystal of its own, and it never runs at exactly the rate written on the box.
        So the recorder listens to both clocks, and stretches the sound by a few parts in a million to keep the lips in step.
        Third, the export. Takes are trimmed, joined, and encoded once, so that nothing is lost twice.
        Pauses longer than a breath can be cut, and the loudness is brought to the level that streaming services ask for.
        A dissolve can soften the jump from one take to the next, and the prompter can be burned into the picture.
        When the machine is busy, the work is split into chunks, and each chunk is rendered by a worker of its own.
        The chunks are joined without a second encode, so the result is exactly what a single pass would have made.
        Captions come from the script itself, so every name and every number is spelled the way the presenter meant.
        Thank you for listening, and see you in the next episode, where we look at colour and light.
        """

    public static let german = """
        Guten Morgen, und willkommen zu diesem kurzen Vortrag über Videoaufnahmen unter Linux.
        Heute sehen wir uns drei Dinge an: wie eine Kamera Bilder liefert, wie der Ton mit ihnen Schritt hält, \
        und wie aus vielen Aufnahmen ein fertiges Video wird.
        Zuerst die Kamera. Eine Webcam schickt Bilder in festem Takt, dreißig Mal in der Sekunde, und jedes trägt \
        einen Zeitstempel von der Uhr des Kernels.
        Dann der Ton. Ein Mikrofon hat seinen eigenen Quarz, und der läuft nie genau so schnell, wie es auf der Schachtel steht.
        Zum Schluss der Export. Die Aufnahmen werden geschnitten, verbunden und einmal kodiert, damit nichts zweimal verloren geht.
        Längere Pausen lassen sich herausschneiden, und die Lautheit wird auf den Wert gebracht, den Streamingdienste verlangen.
        Eine Überblendung macht den Sprung von einer Aufnahme zur nächsten weicher, und der Teleprompter kann ins Bild.
        Ist die Maschine ausgelastet, wird die Arbeit in Stücke geteilt, und jedes Stück rendert ein eigener Prozess.
        Die Stücke werden ohne zweites Kodieren verbunden, also ist das Ergebnis genau das eines einzigen Durchgangs.
        Untertitel kommen aus dem Skript selbst, daher ist jeder Name und jede Zahl so geschrieben, wie sie gemeint war.
        Vielen Dank fürs Zuhören, und bis zur nächsten Folge, in der es um Farbe und Licht geht.
        """
}
